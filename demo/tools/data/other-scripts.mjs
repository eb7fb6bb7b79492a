// Works catalogued in Cyrillic and Greek letters, authors included, as the libraries holding them write
// them: the search finds them from Latin letters ("kropotkin", "bakunin", "njegos") and the Latin-letter
// works from them ("Кропоткин"). Linked translations show the "translations of a work" search.
// They come after the records for curators, so that no other id moves.
// Fields as in for-curators.mjs; translationOf (a key of works.mjs) is linked here (translation_of), and a
// translation has the authors of its original (authors: null).
export const OTHER_SCRIPTS = [
  {
    key: 'mutual-ru', authors: null, title: 'Взаимопомощь как фактор эволюции', subtitle: null,
    lang: 'ru', year: 1907, topic: 'sci', libraries: [4, 2], acquired: '2025-10-02', translationOf: 'kropotkin-mutual', translator: 'В. Батуринский',
    pub: 'Знание', place: 'Санкт-Петербург', d: 'The Russian edition of Mutual Aid, published in St Petersburg after the revolution of 1905.',
  },
  {
    key: 'mutual-el', authors: null, title: 'Η αλληλοβοήθεια', subtitle: 'Ένας παράγοντας της εξέλιξης',
    lang: 'el', year: 1928, topic: 'sci', libraries: [5], acquired: '2025-10-03', translationOf: 'kropotkin-mutual', translator: 'Γ. Σκληρός',
  },
  {
    key: 'dieu-el', authors: null, title: 'Θεός και Κράτος', subtitle: null,
    lang: 'el', year: 1932, topic: 'pol', libraries: [5], acquired: '2025-10-04', translationOf: 'bakunin-dieu', translator: 'Κ. Σπέρας',
  },
  {
    key: 'tolstoy-ispoved', authors: ['Лев Николаевич Толстой'], title: 'Исповедь', subtitle: null,
    lang: 'ru', year: 1884, topic: 'phil', libraries: [4], acquired: '2025-10-05', place: 'Genève',
    d: 'Tolstoy\'s account of the crisis of meaning that followed War and Peace and Anna Karenina; banned in Russia, first printed in Geneva.',
  },
  {
    key: 'dostoevsky-bednye', authors: ['Фёдор Михайлович Достоевский'], title: 'Бедные люди', subtitle: null,
    lang: 'ru', year: 1846, topic: 'lit', libraries: [2], acquired: '2025-10-06', place: 'Санкт-Петербург',
    d: 'Dostoevsky\'s first novel, told in the letters of a poor copying clerk and the young woman he helps.',
  },
  {
    key: 'njegos-vijenac', authors: ['Петар II Петровић Његош'], title: 'Горски вијенац', subtitle: null,
    lang: 'sr', year: 1847, topic: 'poe', libraries: [2], acquired: '2025-10-07', place: 'Беч',
    d: 'A verse drama of Montenegro at the end of the seventeenth century, printed in Vienna by the Armenian Mechitarists.',
  },
];
