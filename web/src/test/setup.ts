import '@testing-library/jest-dom/vitest';
import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { initI18n } from '../i18n';
import en from '../i18n/en.json';

// The CI machine runs server and web projects side by side on 2 cores: lazy chunks (the map,
// the editor) can take longer than the library's 1 s default to appear.
configure({ asyncUtilTimeout: 8000 });

beforeAll(async () => {
  await initI18n('en', en);
});

// jsdom has no layout: scrolling is a no-op we can observe.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
Element.prototype.scrollIntoView = vi.fn();

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  document.title = '';
});
