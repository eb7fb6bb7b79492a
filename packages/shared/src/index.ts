export * from './api.ts';
export * from './constants.ts';
export * from './text.ts';
export * from './bookbuilder.ts';
export * from './libraryadmin.ts';
export * from './curation.ts';
export * from './harvest.ts';
export * from './cover.ts';
