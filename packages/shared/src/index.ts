export * from './api.ts';
export * from './constants.ts';
export * from './text.ts';
