import '@testing-library/jest-dom/vitest';
import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n } from '../i18n';
import en from '../i18n/en.json';

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
