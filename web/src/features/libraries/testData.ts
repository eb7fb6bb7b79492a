// Test data and helpers shared by the library, map, author and bug report tests.
import i18n from '../../i18n';
import publicEn from '../../i18n/public/en.json';
import { library } from '../../test/fixtures';
import type { LibraryPublic } from '../../lib/shared';

/** The test setup loads the common strings only; these tests also need this feature's (plurals). */
export function loadPublicStrings(): void {
  i18n.addResourceBundle('en', 'translation', publicEn, true, true);
}

export function lib(extra: Partial<LibraryPublic>): LibraryPublic {
  return { ...library, ...extra };
}

export const LANTERNA = lib({
  id: 1,
  name: 'Biblioteca Libertaria La Lanterna',
  url: 'https://lanterna.example.org/',
  logo_url: '/collector/api/libraries/1/logo?v=0123abcd', // kept and served by us (issue 27)
  library_type: 'physical',
  established: '1978',
  year_established: '1978-03-11',
  languages: 'it, en',
  description: 'Founded by printers.\nTwelve thousand books.',
  short_desc: 'Social-centre library.',
  opening_hours: 'Tue–Thu 16:00–20:00\nSat 10:00–13:00',
  email_public: 'biblioteca@lanterna.example.org',
  address_line_1: 'Vicolo della Lanterna 7',
  address_line_2: 'Primo piano',
  address_zip: '40126',
  address_city: 'Bologna',
  address_state: 'Emilia-Romagna',
  address_country: 'Italy',
  pgp_public_key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQINBGExample\n-----END PGP PUBLIC KEY BLOCK-----',
  latitude: 44.494887,
  longitude: 11.342616,
  catalog_is_accessible: true,
});

export const CANUTS = lib({
  id: 3,
  name: 'Bibliothèque des Canuts Libres',
  library_type: 'physical',
  short_desc: 'Bibliothèque associative sur les pentes de la Croix-Rousse.',
  address_city: 'Lyon',
  address_country: 'France',
  latitude: 45.764043,
  longitude: 4.835659,
  catalog_is_accessible: false,
});

export const PROSTOR = lib({
  id: 2,
  name: 'Knjižnica Slobodni Prostor',
  library_type: 'physical',
  short_desc: 'Community library in a former print shop.',
  address_city: 'Zagreb',
  address_country: 'Croatia',
  latitude: 45.815011,
  longitude: 15.981919,
});

export const KOENJI = lib({
  id: 5,
  name: 'Kōenji Free Library',
  library_type: 'physical',
  address_city: 'Tōkyō',
  address_country: 'Japan',
  latitude: 35.689487,
  longitude: 139.691711,
});

export const CLOUD = lib({
  id: 9,
  name: 'Cloud Shelf',
  library_type: 'digital',
  short_desc: 'Online only.',
  address_city: null,
  address_country: null,
  latitude: null,
  longitude: null,
});

export const LIBRARIES = [LANTERNA, PROSTOR, CANUTS, KOENJI, CLOUD];
