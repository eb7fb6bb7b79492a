// Test helpers for the curation pages: the string bundles they read, and a recorder of POST bodies.
import i18n from '../../../i18n';
import pagesEn from '../../../i18n/curation-pages/en.json';
import publicEn from '../../../i18n/public/en.json';
import adminEn from '../../../i18n/admin/en.json';
import bookbuilderEn from '../../../i18n/bookbuilder/en.json';
import libraryAdminEn from '../../../i18n/libraryadmin/en.json';
import accountEn from '../../../i18n/account/en.json';

/** The English strings of every bundle these pages borrow keys from. */
export function loadCurationStrings(): void {
  for (const b of [publicEn, adminEn, bookbuilderEn, libraryAdminEn, accountEn, pagesEn]) {
    i18n.addResourceBundle('en', 'translation', b, true, true);
  }
}

export const method = (init?: RequestInit) => init?.method ?? 'GET';
export const bodyOf = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : undefined);
