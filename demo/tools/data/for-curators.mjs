// Records a curator would want to fix: real public-domain works, catalogued the way the member
// libraries really catalogue them, so that the importer's grouping (same folded title, authors and
// languages) leaves work for a person:
//   - author names written differently in different libraries (surname first, Cyrillic, German
//     transliteration), each with entries of their own: merge the authors;
//   - a work held twice under titles that differ beyond case and accents: merge the entries;
//   - a translation of a work of the catalogue without its link to the original: set the translation;
//   - articles of one periodical issue catalogued one by one in one library: make an aggregation;
//   - two editors written as one name: split the author.
// They come after the texts written for the demo, so the ids of all the other entries stay as they
// are, and they carry an acquisition date (`acquired`, written as the data sources' `datestamp`) older
// than the import, so that the user guide stays the newest acquisition.
//
// Fields: key, authors, title, subtitle, lang, year (first edition), topic, libraries (ids, in order),
// acquired (YYYY-MM-DD), and optionally pub / place (first edition), d (description), length (a class of
// LENGTH_CLASSES in build-catalogue.mjs, for the page counts),
// translationOf (key of the original in works.mjs: a translation left unlinked) with translator,
// issue (the periodical issue an article appeared in: the data sources describe the article in the
// bound volume of the holding library).
const KROPOTKIN_SURNAME_FIRST = 'Kropotkin, Peter', KROPOTKIN_CYRILLIC = 'Пётр Кропоткин',
  BAKUNIN_GERMAN = 'Michail Bakunin', MALATESTA_SURNAME_FIRST = 'Malatesta, Errico';

const MOTHER_EARTH_1906 = {
  name: 'Mother Earth', volume: 'Vol. I, No. 1', date: 'March 1906', publisher: 'Emma Goldman', place: 'New York',
  year: 1906, shelf: 'KFR Per. MOT 1906', height: 24,
};

export const FOR_CURATORS = [
  // ---------------------------------------------------------------- one author, three spellings
  {
    key: 'cur-kropotkin-prisons', authors: [KROPOTKIN_SURNAME_FIRST], title: 'In Russian and French Prisons', subtitle: null,
    lang: 'en', year: 1887, topic: 'pol', libraries: [9], acquired: '2025-09-16', pub: 'Ward and Downey', place: 'London',
    d: 'The prisons of the Tsar, from the Peter and Paul fortress to Siberia, and the French prison of Clairvaux, described by a man who was held in both.',
  },
  {
    key: 'cur-kropotkin-ideals', authors: [KROPOTKIN_SURNAME_FIRST], title: 'Ideals and Realities in Russian Literature', subtitle: null,
    lang: 'en', year: 1905, topic: 'lit', libraries: [3, 9], acquired: '2025-09-16', pub: 'Duckworth & Co.', place: 'London',
    d: 'Lectures given in Boston in 1901: Russian literature from its beginnings to Gorky, read for what it says about the life of the people.',
  },
  {
    key: 'cur-kropotkin-nauka', authors: [KROPOTKIN_CYRILLIC], title: 'Современная наука и анархия', subtitle: null,
    lang: 'ru', year: 1920, topic: 'pol', libraries: [4, 18], acquired: '2025-06-03',
    d: 'Anarchism as a conclusion of the natural sciences. This Russian collection first appeared in 1920, a few months before the author\'s death.',
  },
  // The same book as the Russian translation of La Conquête du pain already in the catalogue, with the author in Cyrillic.
  {
    key: 'cur-kropotkin-khleb', authors: [KROPOTKIN_CYRILLIC], title: 'Хлеб и воля', subtitle: null,
    lang: 'ru', year: 1902, topic: 'pol', libraries: [2], acquired: '2025-06-03',
  },
  // ---------------------------------------------------------------- one work, two entries
  // Mutual Aid with its subtitle written into the title.
  {
    key: 'cur-kropotkin-mutual', authors: ['Peter Kropotkin'], title: 'Mutual Aid: A Factor of Evolution', subtitle: null,
    lang: 'en', year: 1902, topic: 'sci', libraries: [20], acquired: '2025-10-21', pub: 'William Heinemann', place: 'London',
    d: 'Cooperation as a factor of evolution, from ants and birds to village communities, guilds and trade unions.',
  },
  // ---------------------------------------------------------------- Bakunin in German transliteration
  {
    key: 'cur-bakunin-slaven', authors: [BAKUNIN_GERMAN], title: 'Aufruf an die Slaven',
    subtitle: 'Von einem russischen Patrioten Michael Bakunin, Mitglied des Slavencongresses in Prag',
    lang: 'de', year: 1848, topic: 'pol', libraries: [2, 4], acquired: '2025-06-03', pub: 'Selbstverlag des Verfassers', place: 'Koethen', length: 'pamphlet',
    d: 'Written after the Slav Congress of Prague: the Slavs will be free only through the revolution, together with the other European peoples and against the empires.',
  },
  {
    key: 'cur-bakunin-reaktion', authors: [BAKUNIN_GERMAN], title: 'Die Reaction in Deutschland', subtitle: 'Ein Fragment von einem Franzosen',
    lang: 'de', year: 1842, topic: 'phil', libraries: [4], acquired: '2025-06-03', pub: 'Otto Wigand', place: 'Leipzig', length: 'pamphlet',
    d: 'An essay in the Deutsche Jahrbücher under the pseudonym Jules Elysard, ending with the sentence that the passion for destruction is a creative passion.',
  },
  // ---------------------------------------------------------------- Malatesta, surname first
  {
    key: 'cur-malatesta-programma', authors: [MALATESTA_SURNAME_FIRST], title: 'Il programma anarchico', subtitle: null,
    lang: 'it', year: 1920, topic: 'pol', libraries: [14, 15], acquired: '2025-07-08', length: 'pamphlet',
    d: 'The programme written by Malatesta and adopted by the Unione Anarchica Italiana at its Bologna congress of 1920.',
  },
  {
    key: 'cur-malatesta-caffe', authors: [MALATESTA_SURNAME_FIRST], title: 'Al caffè', subtitle: 'Conversazioni sull\'anarchismo',
    lang: 'it', year: 1922, topic: 'pol', libraries: [14], acquired: '2025-07-08', place: 'Bologna', length: 'short',
    d: 'Conversations at a café table between an anarchist, a magistrate, a shopkeeper and others, begun in 1897 and completed in 1920.',
  },
  // ---------------------------------------------------------------- a translation without its link
  {
    key: 'cur-zarathustra-it', authors: ['Friedrich Nietzsche'], title: 'Così parlò Zarathustra', subtitle: 'Un libro per tutti e per nessuno',
    lang: 'it', year: 1899, topic: 'phil', libraries: [1, 14], acquired: '2025-07-08', pub: 'Fratelli Bocca', place: 'Torino',
    translationOf: 'nietzsche-zarathustra', translator: 'Edmondo Weisel',
    d: 'The first Italian translation of Also sprach Zarathustra.',
  },
  // ---------------------------------------------------------------- one periodical issue, article by article
  // Mother Earth, Vol. I, No. 1 (March 1906), catalogued article by article in the bound volume of library 10.
  {
    key: 'cur-me-editorial', authors: ['Emma Goldman and Max Baginski'], title: 'Mother Earth', subtitle: null,
    lang: 'en', year: 1906, topic: 'pol', libraries: [10], acquired: '2025-11-04', issue: { ...MOTHER_EARTH_1906, pages: '1–3' },
    d: 'The editorial that opened the first issue and explained the name of the new monthly.',
  },
  {
    key: 'cur-me-tragedy', authors: ['Emma Goldman'], title: 'The Tragedy of Women\'s Emancipation', subtitle: null,
    lang: 'en', year: 1906, topic: 'pol', libraries: [10], acquired: '2025-11-04', issue: { ...MOTHER_EARTH_1906, pages: '9–17' },
    d: 'The vote and the professions have not freed women who remain bound by convention; later collected in Anarchism and Other Essays.',
  },
  {
    key: 'cur-me-government', authors: ['Max Baginski'], title: 'Without Government', subtitle: null,
    lang: 'en', year: 1906, topic: 'pol', libraries: [10], acquired: '2025-11-04', issue: { ...MOTHER_EARTH_1906, pages: '20–26' },
    d: 'Baginski\'s essay on a society organised without government.',
  },
  {
    key: 'cur-me-comstockery', authors: ['John R. Coryell'], title: 'Comstockery', subtitle: null,
    lang: 'en', year: 1906, topic: 'pol', libraries: [10], acquired: '2025-11-04', issue: { ...MOTHER_EARTH_1906, pages: '30–39' },
    d: 'Against Anthony Comstock and the federal law that let him censor the mail.',
  },
  {
    key: 'cur-me-elections', authors: ['Harry Kelly'], title: 'The British Elections and the Labor Parties', subtitle: null,
    lang: 'en', year: 1906, topic: 'pol', libraries: [10], acquired: '2025-11-04', issue: { ...MOTHER_EARTH_1906, pages: '44–47' },
    d: 'On the British general election of January 1906 and the Labour members it sent to Parliament.',
  },
];
