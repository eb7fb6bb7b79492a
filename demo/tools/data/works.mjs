// Bibliographic data of the demo catalogue: real public-domain works with their original titles,
// languages and first-edition years. Everything descriptive (the `d` texts) was written for this demo.
//
// W(key, authors, title, subtitle, lang, year, topic, extra)   an original work
// T(key, of, title, subtitle, lang, year, translator, extra)   a translation of the work `of`
// A(key, authors, title, subtitle, lang, year, topic, extra)   an aggregation (anthology, periodical issue)
// P(key, agg, position, authors, title, subtitle, topic)       a part of the aggregation `agg`
// extra: d = description, pub = first-edition publisher, place = place of the first edition
// topic: lit (fiction, drama), poe (poetry), pol (political and social thought), phil, sci, hist
export const WORKS = [];
const W = (key, authors, title, subtitle, lang, year, topic, extra = {}) =>
  WORKS.push({ kind: 'work', key, authors: [].concat(authors), title, subtitle, lang, year, topic, ...extra });
const T = (key, of, title, subtitle, lang, year, translator, extra = {}) =>
  WORKS.push({ kind: 'translation', key, of, title, subtitle, lang, year, translator, ...extra });
const A = (key, authors, title, subtitle, lang, year, topic, extra = {}) =>
  WORKS.push({ kind: 'aggregation', key, authors: [].concat(authors), title, subtitle, lang, year, topic, ...extra });
const P = (key, agg, position, authors, title, subtitle, topic) =>
  WORKS.push({ kind: 'part', key, agg, position, authors: [].concat(authors), title, subtitle, topic });

// Author names used more than once.
const KROPOTKIN = 'Peter Kropotkin', RECLUS = 'Élisée Reclus', PROUDHON = 'Pierre-Joseph Proudhon',
  MALATESTA = 'Errico Malatesta', BAKUNIN = 'Mikhail Bakunin', MARX = 'Karl Marx', ENGELS = 'Friedrich Engels',
  DARWIN = 'Charles Darwin', MILL = 'John Stuart Mill', TOLSTOY = 'Leo Tolstoy', DOSTOEVSKY = 'Fyodor Dostoevsky',
  THOREAU = 'Henry David Thoreau', EMERSON = 'Ralph Waldo Emerson', DICKENS = 'Charles Dickens',
  AUSTEN = 'Jane Austen', HUGO = 'Victor Hugo', ZOLA = 'Émile Zola', VERNE = 'Jules Verne', NIETZSCHE = 'Friedrich Nietzsche',
  MUHSAM = 'Erich Mühsam', GOLDMAN = 'Emma Goldman', LONDON = 'Jack London', WILDE = 'Oscar Wilde', MORRIS = 'William Morris',
  VERGA = 'Giovanni Verga', PIRANDELLO = 'Luigi Pirandello', SVEVO = 'Italo Svevo', LEOPARDI = 'Giacomo Leopardi',
  FLAUBERT = 'Gustave Flaubert', MAUPASSANT = 'Guy de Maupassant', CHEKHOV = 'Anton Chekhov', GOGOL = 'Nikolai Gogol',
  TURGENEV = 'Ivan Turgenev', GORKY = 'Maxim Gorky', GOETHE = 'Johann Wolfgang von Goethe', KAFKA = 'Franz Kafka',
  RILKE = 'Rainer Maria Rilke', HEINE = 'Heinrich Heine', BUCHNER = 'Georg Büchner', KANT = 'Immanuel Kant',
  ROUSSEAU = 'Jean-Jacques Rousseau', DURKHEIM = 'Émile Durkheim', BERGSON = 'Henri Bergson', WELLS = 'H. G. Wells',
  CONRAD = 'Joseph Conrad', HARDY = 'Thomas Hardy', ELIOT = 'George Eliot', TWAIN = 'Mark Twain', CERVANTES = 'Miguel de Cervantes',
  GALDOS = 'Benito Pérez Galdós', MARTI = 'José Martí', DARIO = 'Rubén Darío', MACHADO_ASSIS = 'Machado de Assis',
  EÇA = 'Eça de Queirós', SENOA = 'August Šenoa', KRANJCEVIC = 'Silvije Strahimir Kranjčević', BRLIC = 'Ivana Brlić-Mažuranić',
  STRINDBERG = 'August Strindberg', LAGERLOF = 'Selma Lagerlöf', IBSEN = 'Henrik Ibsen', KIERKEGAARD = 'Søren Kierkegaard',
  SOSEKI = 'Natsume Sōseki', AKUTAGAWA = 'Akutagawa Ryūnosuke', LU_XUN = 'Lu Xun', TAGORE = 'Rabindranath Tagore',
  SCHREINER = 'Olive Schreiner', PLAATJE = 'Sol Plaatje', MOFOLO = 'Thomas Mofolo', MANSFIELD = 'Katherine Mansfield',
  SHELLEY_M = 'Mary Shelley', BRONTE_C = 'Charlotte Brontë', GASKELL = 'Elizabeth Gaskell', STEVENSON = 'Robert Louis Stevenson',
  DOYLE = 'Arthur Conan Doyle', PAINE = 'Thomas Paine', DOUGLASS = 'Frederick Douglass', GILMAN = 'Charlotte Perkins Gilman',
  MACHIAVELLI = 'Niccolò Machiavelli', LANDAUER = 'Gustav Landauer', LUXEMBURG = 'Rosa Luxemburg', BERKMAN = 'Alexander Berkman',
  BAUDELAIRE = 'Charles Baudelaire', VERLAINE = 'Paul Verlaine', RIMBAUD = 'Arthur Rimbaud', STENDHAL = 'Stendhal',
  BALZAC = 'Honoré de Balzac', SAND = 'George Sand', DUMAS = 'Alexandre Dumas', LOUISE_MICHEL = 'Louise Michel',
  MIRBEAU = 'Octave Mirbeau', FRANCE = 'Anatole France', SALGARI = 'Emilio Salgari', DELEDDA = 'Grazia Deledda',
  FOSCOLO = 'Ugo Foscolo', UNAMUNO = 'Miguel de Unamuno', ANTONIO_MACHADO = 'Antonio Machado', QUIROGA = 'Horacio Quiroga',
  BARRETT = 'Rafael Barrett', GONZALEZ_PRADA = 'Manuel González Prada', PRUS = 'Bolesław Prus', PETOFI = 'Sándor Petőfi',
  FONTANE = 'Theodor Fontane', SCHILLER = 'Friedrich Schiller', SCHNITZLER = 'Arthur Schnitzler', PUSHKIN = 'Alexander Pushkin',
  WORDSWORTH = 'William Wordsworth', COLERIDGE = 'Samuel Taylor Coleridge', FULLER = 'Margaret Fuller';

// ============================================================ English
W('austen-sense', AUSTEN, 'Sense and Sensibility', null, 'en', 1811, 'lit', { pub: 'Thomas Egerton', place: 'London' });
W('austen-pride', AUSTEN, 'Pride and Prejudice', null, 'en', 1813, 'lit', { pub: 'Thomas Egerton', place: 'London', d: 'Five unmarried sisters, one entailed estate and a great deal of misjudgement: the novel of manners that made first impressions its subject.' });
W('austen-mansfield', AUSTEN, 'Mansfield Park', null, 'en', 1814, 'lit', { pub: 'Thomas Egerton', place: 'London' });
W('austen-emma', AUSTEN, 'Emma', null, 'en', 1815, 'lit', { pub: 'John Murray', place: 'London' });
W('shelley-frankenstein', SHELLEY_M, 'Frankenstein', 'or, The Modern Prometheus', 'en', 1818, 'lit', { place: 'London', d: 'A young scientist gives life to a creature and then abandons it. Published anonymously; often read as the first science-fiction novel.' });
W('shelley-lastman', SHELLEY_M, 'The Last Man', null, 'en', 1826, 'lit', { pub: 'Henry Colburn', place: 'London' });
W('bronte-jane', BRONTE_C, 'Jane Eyre', 'An Autobiography', 'en', 1847, 'lit', { pub: 'Smith, Elder & Co.', place: 'London', d: 'An orphan governess tells her own story, from a cruel childhood to a hard-won independence. First published under the pseudonym Currer Bell.' });
W('bronte-shirley', BRONTE_C, 'Shirley', 'A Tale', 'en', 1849, 'lit', { pub: 'Smith, Elder & Co.', place: 'London', d: 'Set among the Yorkshire mill owners and machine-breakers of 1811–12.' });
W('bronte-villette', BRONTE_C, 'Villette', null, 'en', 1853, 'lit', { pub: 'Smith, Elder & Co.', place: 'London' });
W('ebronte-wuthering', 'Emily Brontë', 'Wuthering Heights', null, 'en', 1847, 'lit', { pub: 'Thomas Cautley Newby', place: 'London' });
W('abronte-tenant', 'Anne Brontë', 'The Tenant of Wildfell Hall', null, 'en', 1848, 'lit', { pub: 'Thomas Cautley Newby', place: 'London' });
W('dickens-oliver', DICKENS, 'Oliver Twist', null, 'en', 1838, 'lit', { pub: 'Richard Bentley', place: 'London' });
W('dickens-carol', DICKENS, 'A Christmas Carol', 'In Prose, Being a Ghost Story of Christmas', 'en', 1843, 'lit', { pub: 'Chapman & Hall', place: 'London' });
W('dickens-copperfield', DICKENS, 'David Copperfield', null, 'en', 1850, 'lit', { pub: 'Bradbury & Evans', place: 'London' });
W('dickens-bleak', DICKENS, 'Bleak House', null, 'en', 1853, 'lit', { pub: 'Bradbury & Evans', place: 'London' });
W('dickens-hard', DICKENS, 'Hard Times', 'For These Times', 'en', 1854, 'lit', { pub: 'Bradbury & Evans', place: 'London', d: 'Dickens\'s shortest novel, set in the industrial Coketown, where facts are taught and fancy is forbidden.' });
W('dickens-two', DICKENS, 'A Tale of Two Cities', null, 'en', 1859, 'lit', { pub: 'Chapman & Hall', place: 'London' });
W('dickens-great', DICKENS, 'Great Expectations', null, 'en', 1861, 'lit', { pub: 'Chapman & Hall', place: 'London' });
W('gaskell-barton', GASKELL, 'Mary Barton', 'A Tale of Manchester Life', 'en', 1848, 'lit', { pub: 'Chapman & Hall', place: 'London', d: 'A novel of Manchester mill workers in the hungry 1840s, written to make comfortable readers look at the poor.' });
W('gaskell-cranford', GASKELL, 'Cranford', null, 'en', 1853, 'lit', { pub: 'Chapman & Hall', place: 'London' });
W('gaskell-north', GASKELL, 'North and South', null, 'en', 1855, 'lit', { pub: 'Chapman & Hall', place: 'London' });
W('eliot-adam', ELIOT, 'Adam Bede', null, 'en', 1859, 'lit', { pub: 'William Blackwood and Sons', place: 'Edinburgh' });
W('eliot-mill', ELIOT, 'The Mill on the Floss', null, 'en', 1860, 'lit', { pub: 'William Blackwood and Sons', place: 'Edinburgh' });
W('eliot-middlemarch', ELIOT, 'Middlemarch', 'A Study of Provincial Life', 'en', 1871, 'lit', { pub: 'William Blackwood and Sons', place: 'Edinburgh', d: 'A provincial town observed through several intertwined lives, first issued in eight parts.' });
W('hardy-madding', HARDY, 'Far from the Madding Crowd', null, 'en', 1874, 'lit', { pub: 'Smith, Elder & Co.', place: 'London' });
W('hardy-tess', HARDY, 'Tess of the d\'Urbervilles', 'A Pure Woman Faithfully Presented', 'en', 1891, 'lit', { pub: 'James R. Osgood, McIlvaine & Co.', place: 'London' });
W('hardy-jude', HARDY, 'Jude the Obscure', null, 'en', 1895, 'lit', { pub: 'Osgood, McIlvaine & Co.', place: 'London' });
W('thackeray-vanity', 'William Makepeace Thackeray', 'Vanity Fair', 'A Novel without a Hero', 'en', 1848, 'lit', { pub: 'Bradbury & Evans', place: 'London' });
W('stevenson-treasure', STEVENSON, 'Treasure Island', null, 'en', 1883, 'lit', { pub: 'Cassell & Co.', place: 'London' });
W('stevenson-jekyll', STEVENSON, 'Strange Case of Dr Jekyll and Mr Hyde', null, 'en', 1886, 'lit', { pub: 'Longmans, Green & Co.', place: 'London' });
W('stevenson-kidnapped', STEVENSON, 'Kidnapped', null, 'en', 1886, 'lit', { pub: 'Cassell & Co.', place: 'London' });
W('wilde-happy', WILDE, 'The Happy Prince and Other Tales', null, 'en', 1888, 'lit', { pub: 'David Nutt', place: 'London' });
W('wilde-dorian', WILDE, 'The Picture of Dorian Gray', null, 'en', 1890, 'lit', { d: 'First published in Lippincott\'s Monthly Magazine and expanded into a book the following year.' });
W('wilde-soul', WILDE, 'The Soul of Man under Socialism', null, 'en', 1891, 'pol', { d: 'Wilde\'s essay arguing that socialism matters because it would free everyone to develop an individual life, artists included.' });
W('wilde-ballad', WILDE, 'The Ballad of Reading Gaol', null, 'en', 1898, 'poe', { pub: 'Leonard Smithers', place: 'London', d: 'Written after Wilde\'s release from prison and first signed only with his cell number, C.3.3.' });
W('morris-john-ball', MORRIS, 'A Dream of John Ball', null, 'en', 1888, 'lit', { pub: 'Reeves & Turner', place: 'London' });
W('morris-nowhere', MORRIS, 'News from Nowhere', 'or, An Epoch of Rest, Being Some Chapters from a Utopian Romance', 'en', 1890, 'lit', { d: 'A Victorian socialist wakes up in a future London without money, prisons or parliament. Serialised in Commonweal before its book publication.' });
W('morris-useful', MORRIS, 'Useful Work versus Useless Toil', null, 'en', 1885, 'pol', { d: 'A lecture on the difference between work worth doing and toil done only for profit, issued as a Socialist League pamphlet.' });
W('carpenter-civilisation', 'Edward Carpenter', 'Civilisation: Its Cause and Cure', 'and Other Essays', 'en', 1889, 'pol');
W('carpenter-democracy', 'Edward Carpenter', 'Towards Democracy', null, 'en', 1883, 'poe');
W('wells-time', WELLS, 'The Time Machine', 'An Invention', 'en', 1895, 'lit', { pub: 'William Heinemann', place: 'London' });
W('wells-moreau', WELLS, 'The Island of Doctor Moreau', null, 'en', 1896, 'lit', { pub: 'William Heinemann', place: 'London' });
W('wells-invisible', WELLS, 'The Invisible Man', 'A Grotesque Romance', 'en', 1897, 'lit', { pub: 'C. Arthur Pearson', place: 'London' });
W('wells-war', WELLS, 'The War of the Worlds', null, 'en', 1898, 'lit', { pub: 'William Heinemann', place: 'London' });
W('conrad-darkness', CONRAD, 'Heart of Darkness', null, 'en', 1899, 'lit', { d: 'A journey up the Congo River told by the seaman Marlow; first serialised in Blackwood\'s Magazine.' });
W('conrad-lordjim', CONRAD, 'Lord Jim', 'A Tale', 'en', 1900, 'lit', { pub: 'William Blackwood and Sons', place: 'Edinburgh' });
W('conrad-nostromo', CONRAD, 'Nostromo', 'A Tale of the Seaboard', 'en', 1904, 'lit', { pub: 'Harper & Brothers', place: 'London' });
W('conrad-agent', CONRAD, 'The Secret Agent', 'A Simple Tale', 'en', 1907, 'lit', { pub: 'Methuen & Co.', place: 'London' });
W('stoker-dracula', 'Bram Stoker', 'Dracula', null, 'en', 1897, 'lit', { pub: 'Archibald Constable and Company', place: 'Westminster' });
W('carroll-alice', 'Lewis Carroll', 'Alice\'s Adventures in Wonderland', null, 'en', 1865, 'lit', { pub: 'Macmillan and Co.', place: 'London' });
W('carroll-glass', 'Lewis Carroll', 'Through the Looking-Glass, and What Alice Found There', null, 'en', 1871, 'lit', { pub: 'Macmillan and Co.', place: 'London' });
W('doyle-scarlet', DOYLE, 'A Study in Scarlet', null, 'en', 1887, 'lit');
W('doyle-adventures', DOYLE, 'The Adventures of Sherlock Holmes', null, 'en', 1892, 'lit', { pub: 'George Newnes', place: 'London' });
W('doyle-hound', DOYLE, 'The Hound of the Baskervilles', null, 'en', 1902, 'lit', { pub: 'George Newnes', place: 'London' });
W('kipling-jungle', 'Rudyard Kipling', 'The Jungle Book', null, 'en', 1894, 'lit', { pub: 'Macmillan and Co.', place: 'London' });
W('kipling-kim', 'Rudyard Kipling', 'Kim', null, 'en', 1901, 'lit', { pub: 'Macmillan and Co.', place: 'London' });
W('wollstonecraft-vindication', 'Mary Wollstonecraft', 'A Vindication of the Rights of Woman', 'with Strictures on Political and Moral Subjects', 'en', 1792, 'pol', { pub: 'Joseph Johnson', place: 'London', d: 'The founding text of modern feminism: women appear irrational only because they are denied the education given to men.' });
W('godwin-justice', 'William Godwin', 'An Enquiry Concerning Political Justice', 'and Its Influence on General Virtue and Happiness', 'en', 1793, 'pol', { pub: 'G. G. J. and J. Robinson', place: 'London', d: 'Godwin\'s argument that reason and sincere conversation, not laws and governments, should guide human conduct.' });
W('paine-common', PAINE, 'Common Sense', null, 'en', 1776, 'pol', { place: 'Philadelphia', d: 'The pamphlet that argued, in plain words and in tens of thousands of copies, for American independence.' });
W('paine-rights', PAINE, 'Rights of Man', null, 'en', 1791, 'pol', { pub: 'J. S. Jordan', place: 'London' });
W('paine-reason', PAINE, 'The Age of Reason', null, 'en', 1794, 'phil');
W('mill-liberty', MILL, 'On Liberty', null, 'en', 1859, 'pol', { pub: 'John W. Parker and Son', place: 'London', d: 'Mill\'s defence of individual freedom against both the state and the tyranny of the majority.' });
W('mill-utilitarianism', MILL, 'Utilitarianism', null, 'en', 1863, 'phil', { pub: 'Parker, Son, and Bourn', place: 'London' });
W('mill-principles', MILL, 'Principles of Political Economy', 'with Some of Their Applications to Social Philosophy', 'en', 1848, 'pol', { pub: 'John W. Parker', place: 'London' });
W('mill-subjection', MILL, 'The Subjection of Women', null, 'en', 1869, 'pol', { pub: 'Longmans, Green, Reader, and Dyer', place: 'London', d: 'An argument for the full legal and social equality of the sexes, written with ideas developed together with Harriet Taylor Mill. It was translated into several languages within a year.' });
W('darwin-beagle', DARWIN, 'Journal of Researches into the Geology and Natural History of the Various Countries Visited by H.M.S. Beagle', null, 'en', 1839, 'sci', { pub: 'Henry Colburn', place: 'London' });
W('darwin-origin', DARWIN, 'On the Origin of Species by Means of Natural Selection', 'or the Preservation of Favoured Races in the Struggle for Life', 'en', 1859, 'sci', { pub: 'John Murray', place: 'London', d: 'The book that set out evolution by natural selection, with a mass of evidence gathered over twenty years. The first printing sold out on the day of publication.' });
W('darwin-descent', DARWIN, 'The Descent of Man, and Selection in Relation to Sex', null, 'en', 1871, 'sci', { pub: 'John Murray', place: 'London', d: 'Darwin applies his theory to human beings and develops his idea of sexual selection.' });
W('darwin-expression', DARWIN, 'The Expression of the Emotions in Man and Animals', null, 'en', 1872, 'sci', { pub: 'John Murray', place: 'London' });
W('wallace-malay', 'Alfred Russel Wallace', 'The Malay Archipelago', 'The Land of the Orang-utan, and the Bird of Paradise', 'en', 1869, 'sci', { pub: 'Macmillan and Co.', place: 'London', d: 'Eight years of travel and collecting among the islands of South-East Asia, by the co-discoverer of natural selection.' });
W('huxley-place', 'Thomas Henry Huxley', 'Evidence as to Man\'s Place in Nature', null, 'en', 1863, 'sci', { pub: 'Williams and Norgate', place: 'London' });
W('spencer-statics', 'Herbert Spencer', 'Social Statics', null, 'en', 1851, 'pol', { pub: 'John Chapman', place: 'London' });
W('blake-songs', 'William Blake', 'Songs of Innocence and of Experience', 'Shewing the Two Contrary States of the Human Soul', 'en', 1794, 'poe', { d: 'Illuminated poems printed and coloured by hand by the poet and his wife Catherine.' });
W('pshelley-prometheus', 'Percy Bysshe Shelley', 'Prometheus Unbound', 'A Lyrical Drama in Four Acts', 'en', 1820, 'poe', { pub: 'C. and J. Ollier', place: 'London' });
W('pshelley-anarchy', 'Percy Bysshe Shelley', 'The Masque of Anarchy', null, 'en', 1832, 'poe', { pub: 'Edward Moxon', place: 'London', d: 'Written in 1819 after the Peterloo massacre and published only thirteen years later; the source of the line "Ye are many — they are few".' });
W('byron-juan', 'Lord Byron', 'Don Juan', null, 'en', 1819, 'poe');
W('keats-poems', 'John Keats', 'Poems', null, 'en', 1817, 'poe', { pub: 'C. and J. Ollier', place: 'London' });
W('thoreau-week', THOREAU, 'A Week on the Concord and Merrimack Rivers', null, 'en', 1849, 'hist', { pub: 'James Munroe and Company', place: 'Boston' });
W('thoreau-resistance', THOREAU, 'Resistance to Civil Government', null, 'en', 1849, 'pol', { d: 'The essay later known as Civil Disobedience, first printed in Elizabeth Peabody\'s Aesthetic Papers.' });
W('thoreau-walden', THOREAU, 'Walden', 'or, Life in the Woods', 'en', 1854, 'phil', { pub: 'Ticknor and Fields', place: 'Boston', d: 'Two years in a cabin by Walden Pond, condensed into one and turned into an inquiry on how to live deliberately.' });
W('thoreau-slavery', THOREAU, 'Slavery in Massachusetts', null, 'en', 1854, 'pol');
W('thoreau-principle', THOREAU, 'Life without Principle', null, 'en', 1863, 'phil');
W('emerson-nature', EMERSON, 'Nature', null, 'en', 1836, 'phil', { pub: 'James Munroe and Company', place: 'Boston' });
W('emerson-essays', EMERSON, 'Essays', 'First Series', 'en', 1841, 'phil', { pub: 'James Munroe and Company', place: 'Boston', d: 'Includes "Self-Reliance", "Compensation" and "The Over-Soul".' });
W('emerson-conduct', EMERSON, 'The Conduct of Life', null, 'en', 1860, 'phil', { pub: 'Ticknor and Fields', place: 'Boston' });
W('whitman-leaves', 'Walt Whitman', 'Leaves of Grass', null, 'en', 1855, 'poe', { place: 'Brooklyn', d: 'Twelve untitled poems, printed at the poet\'s own expense with his portrait in place of his name on the title page. Whitman kept expanding the book for the rest of his life.' });
W('whitman-vistas', 'Walt Whitman', 'Democratic Vistas', null, 'en', 1871, 'pol');
W('dickinson-poems', 'Emily Dickinson', 'Poems', null, 'en', 1890, 'poe', { pub: 'Roberts Brothers', place: 'Boston', d: 'The first posthumous selection of Dickinson\'s poems, edited by Mabel Loomis Todd and Thomas Wentworth Higginson.' });
W('poe-tales', 'Edgar Allan Poe', 'Tales of the Grotesque and Arabesque', null, 'en', 1840, 'lit', { pub: 'Lea and Blanchard', place: 'Philadelphia' });
W('poe-raven', 'Edgar Allan Poe', 'The Raven and Other Poems', null, 'en', 1845, 'poe', { pub: 'Wiley and Putnam', place: 'New York' });
W('hawthorne-scarlet', 'Nathaniel Hawthorne', 'The Scarlet Letter', 'A Romance', 'en', 1850, 'lit', { pub: 'Ticknor, Reed, and Fields', place: 'Boston' });
W('hawthorne-gables', 'Nathaniel Hawthorne', 'The House of the Seven Gables', 'A Romance', 'en', 1851, 'lit', { pub: 'Ticknor, Reed, and Fields', place: 'Boston' });
W('melville-typee', 'Herman Melville', 'Typee', 'A Peep at Polynesian Life', 'en', 1846, 'lit');
W('melville-moby', 'Herman Melville', 'Moby-Dick', 'or, The Whale', 'en', 1851, 'lit', { pub: 'Harper & Brothers', place: 'New York', d: 'Ishmael\'s account of Captain Ahab\'s hunt for the white whale, mixing adventure, natural history and philosophy. The British edition appeared a few weeks earlier as The Whale.' });
W('melville-bartleby', 'Herman Melville', 'Bartleby, the Scrivener', 'A Story of Wall-Street', 'en', 1853, 'lit', { d: 'A copyist in a Wall Street office answers every request with "I would prefer not to". First published in Putnam\'s Monthly Magazine.' });
W('twain-sawyer', TWAIN, 'The Adventures of Tom Sawyer', null, 'en', 1876, 'lit', { pub: 'American Publishing Company', place: 'Hartford' });
W('twain-huck', TWAIN, 'Adventures of Huckleberry Finn', null, 'en', 1884, 'lit', { pub: 'Chatto & Windus', place: 'London' });
W('twain-yankee', TWAIN, 'A Connecticut Yankee in King Arthur\'s Court', null, 'en', 1889, 'lit', { pub: 'Charles L. Webster & Co.', place: 'New York' });
W('stowe-uncle', 'Harriet Beecher Stowe', 'Uncle Tom\'s Cabin', 'or, Life Among the Lowly', 'en', 1852, 'lit', { pub: 'John P. Jewett & Company', place: 'Boston' });
W('douglass-narrative', DOUGLASS, 'Narrative of the Life of Frederick Douglass, an American Slave', 'Written by Himself', 'en', 1845, 'hist', { pub: 'Anti-Slavery Office', place: 'Boston', d: 'Douglass\'s first autobiography, written seven years after his escape from slavery and published by the Boston Anti-Slavery Office.' });
W('douglass-bondage', DOUGLASS, 'My Bondage and My Freedom', null, 'en', 1855, 'hist', { pub: 'Miller, Orton & Mulligan', place: 'New York' });
W('jacobs-incidents', 'Harriet Jacobs', 'Incidents in the Life of a Slave Girl', 'Written by Herself', 'en', 1861, 'hist', { place: 'Boston', d: 'Published under the pseudonym Linda Brent; for a long time wrongly thought to be a novel.' });
W('truth-narrative', 'Sojourner Truth', 'Narrative of Sojourner Truth', 'A Northern Slave', 'en', 1850, 'hist', { place: 'Boston' });
W('wells-ida-southern', 'Ida B. Wells', 'Southern Horrors', 'Lynch Law in All Its Phases', 'en', 1892, 'pol', { place: 'New York', d: 'An investigative pamphlet that documented lynchings and dismantled the excuses offered for them.' });
W('dubois-souls', 'W. E. B. Du Bois', 'The Souls of Black Folk', 'Essays and Sketches', 'en', 1903, 'pol', { pub: 'A. C. McClurg & Co.', place: 'Chicago', d: 'Essays on race in America that introduced the idea of "double consciousness".' });
W('washington-slavery', 'Booker T. Washington', 'Up from Slavery', 'An Autobiography', 'en', 1901, 'hist', { pub: 'Doubleday, Page & Co.', place: 'New York' });
W('chopin-awakening', 'Kate Chopin', 'The Awakening', null, 'en', 1899, 'lit', { pub: 'Herbert S. Stone & Co.', place: 'Chicago' });
W('gilman-wallpaper', GILMAN, 'The Yellow Wall-Paper', null, 'en', 1892, 'lit', { d: 'A woman confined to a rest cure writes in secret about the wallpaper of her room. First published in The New England Magazine.' });
W('gilman-economics', GILMAN, 'Women and Economics', 'A Study of the Economic Relation between Men and Women as a Factor in Social Evolution', 'en', 1898, 'pol', { pub: 'Small, Maynard & Co.', place: 'Boston' });
W('gilman-herland', GILMAN, 'Herland', null, 'en', 1915, 'lit', { d: 'A utopia of a country inhabited only by women, serialised in Gilman\'s own magazine The Forerunner.' });
W('crane-maggie', 'Stephen Crane', 'Maggie: A Girl of the Streets', null, 'en', 1893, 'lit');
W('crane-badge', 'Stephen Crane', 'The Red Badge of Courage', 'An Episode of the American Civil War', 'en', 1895, 'lit', { pub: 'D. Appleton and Company', place: 'New York' });
W('bellamy-looking', 'Edward Bellamy', 'Looking Backward: 2000–1887', null, 'en', 1888, 'lit', { pub: 'Ticknor and Company', place: 'Boston', d: 'A Bostonian falls asleep in 1887 and wakes in a cooperative society of the year 2000. One of the best-selling books of its century, it inspired clubs and translations all over the world.' });
W('george-progress', 'Henry George', 'Progress and Poverty', 'An Inquiry into the Cause of Industrial Depressions and of Increase of Want with Increase of Wealth', 'en', 1879, 'pol', { d: 'Why does poverty grow with wealth? George\'s answer was land rent, and his remedy a single tax on land values.' });
W('veblen-leisure', 'Thorstein Veblen', 'The Theory of the Leisure Class', 'An Economic Study in the Evolution of Institutions', 'en', 1899, 'pol', { pub: 'Macmillan', place: 'New York', d: 'The book that gave us "conspicuous consumption".' });
W('james-varieties', 'William James', 'The Varieties of Religious Experience', 'A Study in Human Nature', 'en', 1902, 'phil', { pub: 'Longmans, Green, and Co.', place: 'New York' });
W('james-pragmatism', 'William James', 'Pragmatism', 'A New Name for Some Old Ways of Thinking', 'en', 1907, 'phil', { pub: 'Longmans, Green, and Co.', place: 'New York' });
W('addams-hullhouse', 'Jane Addams', 'Twenty Years at Hull-House', 'with Autobiographical Notes', 'en', 1910, 'hist', { pub: 'Macmillan', place: 'New York' });
W('london-abyss', LONDON, 'The People of the Abyss', null, 'en', 1903, 'pol', { pub: 'Macmillan', place: 'New York', d: 'London lived for weeks in the East End in 1902, disguised as a stranded sailor, and reported what he saw.' });
W('london-call', LONDON, 'The Call of the Wild', null, 'en', 1903, 'lit', { pub: 'Macmillan', place: 'New York' });
W('london-fang', LONDON, 'White Fang', null, 'en', 1906, 'lit', { pub: 'Macmillan', place: 'New York' });
W('london-iron', LONDON, 'The Iron Heel', null, 'en', 1908, 'lit', { pub: 'Macmillan', place: 'New York', d: 'A dystopia, written decades before the word became common, in which an oligarchy crushes a socialist movement.' });
W('london-eden', LONDON, 'Martin Eden', null, 'en', 1909, 'lit', { pub: 'Macmillan', place: 'New York' });
W('sinclair-jungle', 'Upton Sinclair', 'The Jungle', null, 'en', 1906, 'lit', { pub: 'Doubleday, Page & Co.', place: 'New York', d: 'Lithuanian immigrants in the Chicago stockyards. Written to expose the conditions of the workers, it ended up changing food safety laws.' });
W('goldman-anarchism', GOLDMAN, 'Anarchism and Other Essays', null, 'en', 1910, 'pol', { pub: 'Mother Earth Publishing Association', place: 'New York', d: 'Goldman\'s essays on anarchism, prisons, patriotism, the drama and the "traffic in women", with a biographical sketch by Hippolyte Havel.' });
W('goldman-disillusionment', GOLDMAN, 'My Disillusionment in Russia', null, 'en', 1923, 'hist', { pub: 'Doubleday, Page & Co.', place: 'Garden City' });
W('berkman-prison', BERKMAN, 'Prison Memoirs of an Anarchist', null, 'en', 1912, 'hist', { pub: 'Mother Earth Publishing Association', place: 'New York', d: 'Fourteen years in the Western Penitentiary of Pennsylvania, recounted with unusual candour.' });
W('berkman-abc', BERKMAN, 'Now and After', 'The ABC of Communist Anarchism', 'en', 1929, 'pol', { pub: 'Vanguard Press', place: 'New York', d: 'A patient, plain-language introduction written as a conversation with an imagined reader.' });
W('decleyre-works', 'Voltairine de Cleyre', 'Selected Works of Voltairine de Cleyre', null, 'en', 1914, 'pol', { pub: 'Mother Earth Publishing Association', place: 'New York', d: 'Poems, essays and sketches edited by Alexander Berkman, with a biographical sketch by Hippolyte Havel.' });
W('tucker-instead', 'Benjamin R. Tucker', 'Instead of a Book', 'By a Man Too Busy to Write One', 'en', 1893, 'pol', { place: 'New York' });
W('spooner-treason', 'Lysander Spooner', 'No Treason', null, 'en', 1867, 'pol', { place: 'Boston' });
W('warren-commerce', 'Josiah Warren', 'Equitable Commerce', null, 'en', 1846, 'pol');
W('kropotkin-fields', KROPOTKIN, 'Fields, Factories and Workshops', null, 'en', 1899, 'pol', { pub: 'Hutchinson & Co.', place: 'London', d: 'A case for integrating agriculture and industry, and manual and intellectual work, built on agricultural statistics from half of Europe.' });
W('kropotkin-memoirs', KROPOTKIN, 'Memoirs of a Revolutionist', null, 'en', 1899, 'hist', { pub: 'Houghton, Mifflin and Company', place: 'Boston', d: 'From the Corps of Pages of the Tsar to prison, escape and exile: Kropotkin\'s autobiography, first serialised in The Atlantic Monthly.' });
W('kropotkin-mutual', KROPOTKIN, 'Mutual Aid', 'A Factor of Evolution', 'en', 1902, 'sci', { pub: 'William Heinemann', place: 'London', d: 'Cooperation, not only competition, drives evolution: from animal societies to medieval guilds and modern trade unions. Written as a reply to Huxley\'s "struggle for existence".' });
W('joyce-dubliners', 'James Joyce', 'Dubliners', null, 'en', 1914, 'lit', { pub: 'Grant Richards', place: 'London' });
W('joyce-portrait', 'James Joyce', 'A Portrait of the Artist as a Young Man', null, 'en', 1916, 'lit', { pub: 'B. W. Huebsch', place: 'New York' });
W('woolf-voyage', 'Virginia Woolf', 'The Voyage Out', null, 'en', 1915, 'lit', { pub: 'Duckworth', place: 'London' });
W('woolf-jacob', 'Virginia Woolf', 'Jacob\'s Room', null, 'en', 1922, 'lit', { pub: 'Hogarth Press', place: 'London' });
W('woolf-dalloway', 'Virginia Woolf', 'Mrs Dalloway', null, 'en', 1925, 'lit', { pub: 'Hogarth Press', place: 'London' });
W('shakespeare-hamlet', 'William Shakespeare', 'The Tragicall Historie of Hamlet, Prince of Denmarke', null, 'en', 1603, 'lit', { d: 'The first quarto, the earliest printed text of the play and considerably shorter than the versions of 1604 and 1623.' });
W('schreiner-farm', SCHREINER, 'The Story of an African Farm', null, 'en', 1883, 'lit', { pub: 'Chapman & Hall', place: 'London', d: 'Three children grow up on an isolated Karoo farm. Published under the pseudonym Ralph Iron, it is one of the first South African novels.' });
W('schreiner-dreams', SCHREINER, 'Dreams', null, 'en', 1890, 'lit', { pub: 'T. Fisher Unwin', place: 'London' });
W('schreiner-halket', SCHREINER, 'Trooper Peter Halket of Mashonaland', null, 'en', 1897, 'lit', { pub: 'T. Fisher Unwin', place: 'London', d: 'A parable against the British South Africa Company\'s war in Mashonaland, with a photograph of a hanging in Bulawayo as its frontispiece.' });
W('schreiner-labour', SCHREINER, 'Woman and Labour', null, 'en', 1911, 'pol', { pub: 'T. Fisher Unwin', place: 'London' });
W('plaatje-native', PLAATJE, 'Native Life in South Africa', 'Before and Since the European War and the Boer Rebellion', 'en', 1916, 'pol', { pub: 'P. S. King and Son', place: 'London', d: 'A detailed indictment of the Natives Land Act of 1913, written by a founder of the South African Native National Congress.' });
W('plaatje-mhudi', PLAATJE, 'Mhudi', 'An Epic of South African Native Life a Hundred Years Ago', 'en', 1930, 'lit', { pub: 'Lovedale Press', place: 'Lovedale', d: 'One of the first novels in English by a Black South African writer.' });
W('hayford-ethiopia', 'J. E. Casely Hayford', 'Ethiopia Unbound', 'Studies in Race Emancipation', 'en', 1911, 'lit', { pub: 'C. M. Phillips', place: 'London' });
W('blyden-christianity', 'Edward Wilmot Blyden', 'Christianity, Islam and the Negro Race', null, 'en', 1887, 'pol', { pub: 'W. B. Whittingham & Co.', place: 'London' });
W('tagore-gitanjali', TAGORE, 'Gitanjali (Song Offerings)', null, 'en', 1912, 'poe', { pub: 'The India Society', place: 'London', d: 'Prose versions of his own Bengali songs, with an introduction by W. B. Yeats.' });
W('tagore-nationalism', TAGORE, 'Nationalism', null, 'en', 1917, 'pol', { pub: 'Macmillan', place: 'New York', d: 'Lectures delivered in Japan and the United States against the nation-state as a machine of power.' });
W('gibran-prophet', 'Kahlil Gibran', 'The Prophet', null, 'en', 1923, 'poe', { pub: 'Alfred A. Knopf', place: 'New York' });
W('lawson-billy', 'Henry Lawson', 'While the Billy Boils', null, 'en', 1896, 'lit', { pub: 'Angus & Robertson', place: 'Sydney', d: 'Stories of shearers, swagmen and small selectors in the Australian bush.' });
W('paterson-snowy', 'A. B. Paterson', 'The Man from Snowy River and Other Verses', null, 'en', 1895, 'poe', { pub: 'Angus & Robertson', place: 'Sydney' });
W('franklin-career', 'Miles Franklin', 'My Brilliant Career', null, 'en', 1901, 'lit', { pub: 'William Blackwood and Sons', place: 'Edinburgh' });
W('clarke-natural', 'Marcus Clarke', 'His Natural Life', null, 'en', 1874, 'lit', { place: 'Melbourne', d: 'A convict novel set in Van Diemen\'s Land and at Port Arthur, first serialised in the Australian Journal.' });
W('mansfield-pension', MANSFIELD, 'In a German Pension', null, 'en', 1911, 'lit', { pub: 'Stephen Swift', place: 'London' });
W('mansfield-bliss', MANSFIELD, 'Bliss and Other Stories', null, 'en', 1920, 'lit', { pub: 'Constable & Co.', place: 'London' });
W('mansfield-garden', MANSFIELD, 'The Garden Party and Other Stories', null, 'en', 1922, 'lit', { pub: 'Constable & Co.', place: 'London', d: 'Stories, several of them set in the Wellington of the author\'s childhood.' });
W('montgomery-anne', 'Lucy Maud Montgomery', 'Anne of Green Gables', null, 'en', 1908, 'lit', { pub: 'L. C. Page & Co.', place: 'Boston' });
W('leacock-sunshine', 'Stephen Leacock', 'Sunshine Sketches of a Little Town', null, 'en', 1912, 'lit', { pub: 'Bell & Cockburn', place: 'Toronto' });

// ============================================================ Italian
W('machiavelli-principe', MACHIAVELLI, 'Il Principe', null, 'it', 1532, 'pol', { pub: 'Antonio Blado', place: 'Roma', d: 'Written in 1513 and printed only after the author\'s death: how principalities are won, kept and lost.' });
W('machiavelli-discorsi', MACHIAVELLI, 'Discorsi sopra la prima deca di Tito Livio', null, 'it', 1531, 'pol', { pub: 'Antonio Blado', place: 'Roma' });
W('beccaria-delitti', 'Cesare Beccaria', 'Dei delitti e delle pene', null, 'it', 1764, 'pol', { place: 'Livorno', d: 'A short, anonymous treatise against torture and the death penalty that was read and translated all over Enlightenment Europe.' });
W('foscolo-ortis', FOSCOLO, 'Ultime lettere di Jacopo Ortis', null, 'it', 1802, 'lit', { place: 'Milano' });
W('foscolo-sepolcri', FOSCOLO, 'Dei sepolcri', null, 'it', 1807, 'poe', { pub: 'Nicolò Bettoni', place: 'Brescia' });
W('manzoni-sposi', 'Alessandro Manzoni', 'I promessi sposi', 'Storia milanese del secolo XVII', 'it', 1827, 'lit', { pub: 'Vincenzo Ferrario', place: 'Milano', d: 'Renzo and Lucia, two silk-workers from Lombardy, separated by a petty tyrant, by famine and by the plague of 1630.' });
W('leopardi-operette', LEOPARDI, 'Operette morali', null, 'it', 1827, 'phil', { pub: 'Antonio Fortunato Stella', place: 'Milano' });
W('leopardi-canti', LEOPARDI, 'Canti', null, 'it', 1831, 'poe', { pub: 'Guglielmo Piatti', place: 'Firenze', d: 'The poems of Leopardi, from the patriotic canzoni to "L\'infinito" and "A Silvia".' });
W('pellico-prigioni', 'Silvio Pellico', 'Le mie prigioni', null, 'it', 1832, 'hist', { pub: 'Giuseppe Bocca', place: 'Torino', d: 'Ten years in Austrian prisons, told without a word of hatred; the book was said to have harmed Austria more than a lost battle.' });
W('mazzini-doveri', 'Giuseppe Mazzini', 'Dei doveri dell\'uomo', null, 'it', 1860, 'pol', { d: 'Addressed to Italian workers: duties before rights, association before individual interest.' });
W('nievo-confessioni', 'Ippolito Nievo', 'Le confessioni d\'un italiano', null, 'it', 1867, 'lit', { pub: 'Le Monnier', place: 'Firenze' });
W('verga-campi', VERGA, 'Vita dei campi', null, 'it', 1880, 'lit', { pub: 'Treves', place: 'Milano' });
W('verga-malavoglia', VERGA, 'I Malavoglia', null, 'it', 1881, 'lit', { pub: 'Treves', place: 'Milano', d: 'A family of fishermen in Aci Trezza and their boat, the Provvidenza. The first novel of Verga\'s unfinished cycle of the "vanquished".' });
W('verga-rusticane', VERGA, 'Novelle rusticane', null, 'it', 1883, 'lit', { pub: 'Casanova', place: 'Torino' });
W('verga-gesualdo', VERGA, 'Mastro-don Gesualdo', null, 'it', 1889, 'lit', { pub: 'Treves', place: 'Milano' });
W('collodi-pinocchio', 'Carlo Collodi', 'Le avventure di Pinocchio', 'Storia di un burattino', 'it', 1883, 'lit', { pub: 'Felice Paggi', place: 'Firenze', d: 'The wooden puppet who wanted to be a boy, first serialised in the Giornale per i bambini.' });
W('deamicis-cuore', 'Edmondo De Amicis', 'Cuore', null, 'it', 1886, 'lit', { pub: 'Treves', place: 'Milano' });
W('dannunzio-piacere', 'Gabriele D\'Annunzio', 'Il piacere', null, 'it', 1889, 'lit', { pub: 'Treves', place: 'Milano' });
W('fogazzaro-mondo', 'Antonio Fogazzaro', 'Piccolo mondo antico', null, 'it', 1895, 'lit', { pub: 'Galli', place: 'Milano' });
W('svevo-vita', SVEVO, 'Una vita', null, 'it', 1892, 'lit', { pub: 'Vram', place: 'Trieste' });
W('svevo-senilita', SVEVO, 'Senilità', null, 'it', 1898, 'lit', { pub: 'Vram', place: 'Trieste' });
W('svevo-zeno', SVEVO, 'La coscienza di Zeno', null, 'it', 1923, 'lit', { pub: 'Cappelli', place: 'Bologna', d: 'Zeno Cosini writes his memoirs for his psychoanalyst, starting with his last cigarette, which is never the last.' });
W('pirandello-mattia', PIRANDELLO, 'Il fu Mattia Pascal', null, 'it', 1904, 'lit', { d: 'A man reads of his own death in a newspaper and tries to live as somebody else.' });
W('pirandello-personaggi', PIRANDELLO, 'Sei personaggi in cerca d\'autore', null, 'it', 1921, 'lit', { pub: 'Bemporad', place: 'Firenze' });
W('pirandello-uno', PIRANDELLO, 'Uno, nessuno e centomila', null, 'it', 1926, 'lit', { pub: 'Bemporad', place: 'Firenze' });
W('deledda-portolu', DELEDDA, 'Elias Portolu', null, 'it', 1903, 'lit');
W('deledda-canne', DELEDDA, 'Canne al vento', null, 'it', 1913, 'lit', { pub: 'Treves', place: 'Milano' });
W('salgari-corsaro', SALGARI, 'Il Corsaro Nero', null, 'it', 1898, 'lit', { pub: 'Donath', place: 'Genova' });
W('salgari-tigri', SALGARI, 'Le tigri di Mompracem', null, 'it', 1900, 'lit', { pub: 'Donath', place: 'Genova' });
W('serao-ventre', 'Matilde Serao', 'Il ventre di Napoli', null, 'it', 1884, 'hist', { pub: 'Treves', place: 'Milano', d: 'Reports on the poor quarters of Naples written during the cholera epidemic of 1884.' });
W('cafiero-compendio', 'Carlo Cafiero', 'Il Capitale di Carlo Marx brevemente compendiato', null, 'it', 1879, 'pol', { pub: 'Bignami', place: 'Milano', d: 'A popular summary of the first volume of Capital that Marx himself praised.' });
W('malatesta-contadini', MALATESTA, 'Fra contadini', 'Dialogo sull\'anarchia', 'it', 1884, 'pol', { place: 'Firenze', d: 'A conversation between two peasants, the young Beppe and the old Giorgio, that introduces anarchist ideas with proverbs and common sense. One of the most reprinted and translated pamphlets of its kind.' });
W('malatesta-anarchia', MALATESTA, 'L\'anarchia', null, 'it', 1891, 'pol', { place: 'Londra', d: 'A short essay on what anarchy means and why it is possible.' });
W('fabbri-dittatura', 'Luigi Fabbri', 'Dittatura e rivoluzione', null, 'it', 1921, 'pol', { place: 'Ancona' });
W('montessori-metodo', 'Maria Montessori', 'Il metodo della pedagogia scientifica', 'applicato all\'educazione infantile nelle Case dei Bambini', 'it', 1909, 'phil', { pub: 'S. Lapi', place: 'Città di Castello', d: 'The book in which Montessori described the method developed in the Case dei Bambini of San Lorenzo in Rome.' });
W('labriola-memoria', 'Antonio Labriola', 'In memoria del Manifesto dei comunisti', null, 'it', 1895, 'pol', { pub: 'Loescher', place: 'Roma' });
W('pascoli-myricae', 'Giovanni Pascoli', 'Myricae', null, 'it', 1891, 'poe', { pub: 'Raffaello Giusti', place: 'Livorno' });
W('carducci-odi', 'Giosuè Carducci', 'Odi barbare', null, 'it', 1877, 'poe', { pub: 'Zanichelli', place: 'Bologna' });
W('negri-fatalita', 'Ada Negri', 'Fatalità', null, 'it', 1892, 'poe', { pub: 'Treves', place: 'Milano', d: 'The first book of poems by a young schoolteacher from Lodi, written in the voice of the poor and the factory girls.' });

// ============================================================ French
W('laboetie-servitude', 'Étienne de La Boétie', 'Discours de la servitude volontaire', null, 'fr', 1576, 'pol', { d: 'Why do the many obey the one? A young magistrate\'s answer: because they consent, and could stop consenting.' });
W('voltaire-candide', 'Voltaire', 'Candide, ou l\'Optimisme', null, 'fr', 1759, 'lit', { place: 'Genève' });
W('rousseau-inegalite', ROUSSEAU, 'Discours sur l\'origine et les fondements de l\'inégalité parmi les hommes', null, 'fr', 1755, 'pol', { pub: 'Marc-Michel Rey', place: 'Amsterdam' });
W('rousseau-contrat', ROUSSEAU, 'Du contrat social', 'ou Principes du droit politique', 'fr', 1762, 'pol', { pub: 'Marc-Michel Rey', place: 'Amsterdam' });
W('rousseau-emile', ROUSSEAU, 'Émile, ou De l\'éducation', null, 'fr', 1762, 'phil', { place: 'La Haye' });
W('diderot-jacques', 'Denis Diderot', 'Jacques le fataliste et son maître', null, 'fr', 1796, 'lit', { pub: 'Buisson', place: 'Paris' });
W('lamarck-philosophie', 'Jean-Baptiste de Lamarck', 'Philosophie zoologique', null, 'fr', 1809, 'sci', { pub: 'Dentu', place: 'Paris' });
W('fourier-quatre', 'Charles Fourier', 'Théorie des quatre mouvements et des destinées générales', null, 'fr', 1808, 'pol', { place: 'Lyon', d: 'Fourier\'s first book, published anonymously in Lyon, announcing a society of attraction instead of constraint.' });
W('tocqueville-democratie', 'Alexis de Tocqueville', 'De la démocratie en Amérique', null, 'fr', 1835, 'pol', { pub: 'Charles Gosselin', place: 'Paris' });
W('stendhal-rouge', STENDHAL, 'Le Rouge et le Noir', 'Chronique de 1830', 'fr', 1830, 'lit', { pub: 'A. Levavasseur', place: 'Paris' });
W('stendhal-chartreuse', STENDHAL, 'La Chartreuse de Parme', null, 'fr', 1839, 'lit', { pub: 'Ambroise Dupont', place: 'Paris' });
W('balzac-grandet', BALZAC, 'Eugénie Grandet', null, 'fr', 1833, 'lit');
W('balzac-goriot', BALZAC, 'Le Père Goriot', null, 'fr', 1835, 'lit', { pub: 'Werdet', place: 'Paris' });
W('sand-indiana', SAND, 'Indiana', null, 'fr', 1832, 'lit', { pub: 'J.-P. Roret et H. Dupuy', place: 'Paris' });
W('sand-mare', SAND, 'La Mare au diable', null, 'fr', 1846, 'lit', { place: 'Paris' });
W('hugo-condamne', HUGO, 'Le Dernier Jour d\'un condamné', null, 'fr', 1829, 'lit', { pub: 'Charles Gosselin', place: 'Paris', d: 'The last hours of a man sentenced to death, told in the first person; Hugo\'s first plea against capital punishment.' });
W('hugo-notredame', HUGO, 'Notre-Dame de Paris', null, 'fr', 1831, 'lit', { pub: 'Charles Gosselin', place: 'Paris' });
W('hugo-contemplations', HUGO, 'Les Contemplations', null, 'fr', 1856, 'poe', { pub: 'Michel Lévy frères', place: 'Paris' });
W('hugo-miserables', HUGO, 'Les Misérables', null, 'fr', 1862, 'lit', { pub: 'A. Lacroix, Verboeckhoven et Cie', place: 'Bruxelles', d: 'Jean Valjean, Fantine, Cosette, Javert and the barricade of 1832: Hugo\'s great novel of the poor, written in exile in Guernsey.' });
W('hugo-travailleurs', HUGO, 'Les Travailleurs de la mer', null, 'fr', 1866, 'lit', { pub: 'A. Lacroix, Verboeckhoven et Cie', place: 'Bruxelles' });
W('hugo-quatrevingt', HUGO, 'Quatrevingt-treize', null, 'fr', 1874, 'lit', { pub: 'Michel Lévy frères', place: 'Paris' });
W('dumas-mousquetaires', DUMAS, 'Les Trois Mousquetaires', null, 'fr', 1844, 'lit', { pub: 'Baudry', place: 'Paris' });
W('dumas-montecristo', DUMAS, 'Le Comte de Monte-Cristo', null, 'fr', 1844, 'lit');
W('tristan-union', 'Flora Tristan', 'Union ouvrière', null, 'fr', 1843, 'pol', { place: 'Paris', d: 'A call for a universal union of working men and women, published by subscription two decades before the First International.' });
W('proudhon-propriete', PROUDHON, 'Qu\'est-ce que la propriété ?', 'ou Recherches sur le principe du droit et du gouvernement', 'fr', 1840, 'pol', { pub: 'J.-F. Brocard', place: 'Paris', d: 'The first memoir on property, with its famous answer "la propriété, c\'est le vol", and the first claim of the name anarchist.' });
W('proudhon-contradictions', PROUDHON, 'Système des contradictions économiques, ou Philosophie de la misère', null, 'fr', 1846, 'pol', { pub: 'Guillaumin', place: 'Paris' });
W('proudhon-idee', PROUDHON, 'Idée générale de la Révolution au XIXe siècle', null, 'fr', 1851, 'pol', { pub: 'Garnier frères', place: 'Paris', d: 'Written in prison after 1848: the revolution as a web of free contracts replacing government.' });
W('proudhon-federatif', PROUDHON, 'Du principe fédératif', 'et de la nécessité de reconstituer le parti de la révolution', 'fr', 1863, 'pol', { pub: 'E. Dentu', place: 'Paris' });
W('proudhon-capacite', PROUDHON, 'De la capacité politique des classes ouvrières', null, 'fr', 1865, 'pol', { pub: 'E. Dentu', place: 'Paris' });
W('flaubert-bovary', FLAUBERT, 'Madame Bovary', 'Mœurs de province', 'fr', 1857, 'lit', { pub: 'Michel Lévy frères', place: 'Paris', d: 'Emma Bovary, the wife of a country doctor, reads too many novels and expects life to resemble them. Its serialisation led to a trial for offences against public morals.' });
W('flaubert-salammbo', FLAUBERT, 'Salammbô', null, 'fr', 1862, 'lit', { pub: 'Michel Lévy frères', place: 'Paris' });
W('flaubert-education', FLAUBERT, 'L\'Éducation sentimentale', 'Histoire d\'un jeune homme', 'fr', 1869, 'lit', { pub: 'Michel Lévy frères', place: 'Paris' });
W('flaubert-contes', FLAUBERT, 'Trois contes', null, 'fr', 1877, 'lit', { pub: 'G. Charpentier', place: 'Paris' });
W('baudelaire-fleurs', BAUDELAIRE, 'Les Fleurs du mal', null, 'fr', 1857, 'poe', { pub: 'Poulet-Malassis et de Broise', place: 'Paris', d: 'Condemned for obscenity in the year of its publication; six poems had to be removed from later editions.' });
W('baudelaire-spleen', BAUDELAIRE, 'Petits poèmes en prose', 'Le Spleen de Paris', 'fr', 1869, 'poe', { pub: 'Michel Lévy frères', place: 'Paris' });
W('verlaine-saturniens', VERLAINE, 'Poèmes saturniens', null, 'fr', 1866, 'poe', { pub: 'Alphonse Lemerre', place: 'Paris' });
W('verlaine-romances', VERLAINE, 'Romances sans paroles', null, 'fr', 1874, 'poe', { place: 'Sens' });
W('rimbaud-saison', RIMBAUD, 'Une saison en enfer', null, 'fr', 1873, 'poe', { pub: 'Alliance typographique (M.-J. Poot et Cie)', place: 'Bruxelles' });
W('rimbaud-illuminations', RIMBAUD, 'Illuminations', null, 'fr', 1886, 'poe', { place: 'Paris' });
W('verne-centre', VERNE, 'Voyage au centre de la Terre', null, 'fr', 1864, 'lit', { pub: 'J. Hetzel', place: 'Paris' });
W('verne-lune', VERNE, 'De la Terre à la Lune', null, 'fr', 1865, 'lit', { pub: 'J. Hetzel', place: 'Paris' });
W('verne-vingt', VERNE, 'Vingt mille lieues sous les mers', null, 'fr', 1870, 'lit', { pub: 'J. Hetzel', place: 'Paris', d: 'Professor Aronnax, his servant Conseil and the harpooner Ned Land, prisoners of Captain Nemo aboard the Nautilus.' });
W('verne-tour', VERNE, 'Le Tour du monde en quatre-vingts jours', null, 'fr', 1872, 'lit', { pub: 'J. Hetzel', place: 'Paris', d: 'Phileas Fogg bets half his fortune that he can go round the world in eighty days, and forgets the date line.' });
W('verne-ile', VERNE, 'L\'Île mystérieuse', null, 'fr', 1875, 'lit', { pub: 'J. Hetzel', place: 'Paris' });
W('zola-raquin', ZOLA, 'Thérèse Raquin', null, 'fr', 1867, 'lit', { pub: 'A. Lacroix, Verboeckhoven et Cie', place: 'Paris' });
W('zola-assommoir', ZOLA, 'L\'Assommoir', null, 'fr', 1877, 'lit', { pub: 'G. Charpentier', place: 'Paris' });
W('zola-nana', ZOLA, 'Nana', null, 'fr', 1880, 'lit', { pub: 'G. Charpentier', place: 'Paris' });
W('zola-bonheur', ZOLA, 'Au Bonheur des Dames', null, 'fr', 1883, 'lit', { pub: 'G. Charpentier', place: 'Paris' });
W('zola-germinal', ZOLA, 'Germinal', null, 'fr', 1885, 'lit', { pub: 'G. Charpentier', place: 'Paris', d: 'A strike in the coal mines of northern France, seen through the eyes of Étienne Lantier. At Zola\'s funeral miners chanted "Germinal!".' });
W('zola-bete', ZOLA, 'La Bête humaine', null, 'fr', 1890, 'lit', { pub: 'G. Charpentier', place: 'Paris' });
W('maupassant-vie', MAUPASSANT, 'Une vie', null, 'fr', 1883, 'lit', { pub: 'Victor Havard', place: 'Paris' });
W('maupassant-belami', MAUPASSANT, 'Bel-Ami', null, 'fr', 1885, 'lit', { pub: 'Victor Havard', place: 'Paris' });
W('lafargue-paresse', 'Paul Lafargue', 'Le Droit à la paresse', 'Réfutation du droit au travail de 1848', 'fr', 1880, 'pol', { d: 'A satirical pamphlet demanding a working day of three hours, first published in the newspaper L\'Égalité.' });
W('michel-memoires', LOUISE_MICHEL, 'Mémoires de Louise Michel, écrits par elle-même', null, 'fr', 1886, 'hist', { pub: 'F. Roy', place: 'Paris' });
W('michel-commune', LOUISE_MICHEL, 'La Commune', null, 'fr', 1898, 'hist', { pub: 'P.-V. Stock', place: 'Paris', d: 'The history of the Paris Commune of 1871 by one of its best-known participants, deported to New Caledonia after its fall.' });
W('reclus-ruisseau', RECLUS, 'Histoire d\'un ruisseau', null, 'fr', 1869, 'sci', { pub: 'J. Hetzel', place: 'Paris', d: 'The life of a stream from the spring to the sea, told for young readers by the geographer Élisée Reclus.' });
W('reclus-montagne', RECLUS, 'Histoire d\'une montagne', null, 'fr', 1880, 'sci', { pub: 'J. Hetzel', place: 'Paris' });
W('reclus-paysan', RECLUS, 'À mon frère le paysan', null, 'fr', 1893, 'pol', { d: 'A short open letter to peasants on land, work and mutual aid.' });
W('reclus-evolution', RECLUS, 'L\'Évolution, la révolution et l\'idéal anarchique', null, 'fr', 1898, 'pol', { pub: 'P.-V. Stock', place: 'Paris', d: 'Reclus argues that evolution and revolution are two phases of the same movement, and that anarchy is its natural direction.' });
W('reclus-homme', RECLUS, 'L\'Homme et la Terre', null, 'fr', 1905, 'sci', { pub: 'Librairie universelle', place: 'Paris', d: 'Six volumes of social geography, published after the author\'s death: human history read through its relation to the Earth.' });
W('kropotkin-paroles', KROPOTKIN, 'Paroles d\'un révolté', null, 'fr', 1885, 'pol', { pub: 'C. Marpon et E. Flammarion', place: 'Paris', d: 'Articles from the Geneva paper Le Révolté, collected and edited by Élisée Reclus while Kropotkin was in a French prison.' });
W('kropotkin-conquete', KROPOTKIN, 'La Conquête du pain', null, 'fr', 1892, 'pol', { pub: 'Tresse & Stock', place: 'Paris', d: 'How a city in revolution could feed, house and clothe everyone the day after, with a preface by Élisée Reclus. One of the most widely translated of Kropotkin\'s books.' });
W('kropotkin-anarchie', KROPOTKIN, 'L\'Anarchie, sa philosophie, son idéal', null, 'fr', 1896, 'pol', { pub: 'P.-V. Stock', place: 'Paris' });
W('bakunin-dieu', BAKUNIN, 'Dieu et l\'État', null, 'fr', 1882, 'pol', { place: 'Genève', d: 'A fragment from an unfinished work, edited and published after Bakunin\'s death by Carlo Cafiero and Élisée Reclus.' });
W('grave-societe', 'Jean Grave', 'La Société mourante et l\'anarchie', null, 'fr', 1893, 'pol', { pub: 'Tresse & Stock', place: 'Paris', d: 'Its preface by Octave Mirbeau did not prevent its author from being sentenced to two years in prison.' });
W('faure-douleur', 'Sébastien Faure', 'La Douleur universelle', 'Philosophie libertaire', 'fr', 1895, 'phil', { pub: 'Albert Savine', place: 'Paris' });
W('pelloutier-bourses', 'Fernand Pelloutier', 'Histoire des Bourses du travail', 'Origine, institutions, avenir', 'fr', 1902, 'hist', { pub: 'Schleicher frères', place: 'Paris', d: 'Published after Pelloutier\'s death, with a preface by Georges Sorel.' });
W('guyau-esquisse', 'Jean-Marie Guyau', 'Esquisse d\'une morale sans obligation ni sanction', null, 'fr', 1885, 'phil', { pub: 'Félix Alcan', place: 'Paris' });
W('durkheim-division', DURKHEIM, 'De la division du travail social', null, 'fr', 1893, 'phil', { pub: 'Félix Alcan', place: 'Paris' });
W('durkheim-regles', DURKHEIM, 'Les Règles de la méthode sociologique', null, 'fr', 1895, 'phil', { pub: 'Félix Alcan', place: 'Paris' });
W('durkheim-suicide', DURKHEIM, 'Le Suicide', 'Étude de sociologie', 'fr', 1897, 'phil', { pub: 'Félix Alcan', place: 'Paris' });
W('bergson-essai', BERGSON, 'Essai sur les données immédiates de la conscience', null, 'fr', 1889, 'phil', { pub: 'Félix Alcan', place: 'Paris' });
W('bergson-evolution', BERGSON, 'L\'Évolution créatrice', null, 'fr', 1907, 'phil', { pub: 'Félix Alcan', place: 'Paris' });
W('poincare-science', 'Henri Poincaré', 'La Science et l\'Hypothèse', null, 'fr', 1902, 'sci', { pub: 'Flammarion', place: 'Paris' });
W('mirbeau-jardin', MIRBEAU, 'Le Jardin des supplices', null, 'fr', 1899, 'lit', { pub: 'Charpentier et Fasquelle', place: 'Paris' });
W('mirbeau-journal', MIRBEAU, 'Le Journal d\'une femme de chambre', null, 'fr', 1900, 'lit', { pub: 'Charpentier et Fasquelle', place: 'Paris', d: 'Célestine, a chambermaid, keeps a diary of the households she serves and of everything they would rather hide.' });
W('france-pingouins', FRANCE, 'L\'Île des Pingouins', null, 'fr', 1908, 'lit', { pub: 'Calmann-Lévy', place: 'Paris' });
W('france-dieux', FRANCE, 'Les dieux ont soif', null, 'fr', 1912, 'lit', { pub: 'Calmann-Lévy', place: 'Paris' });
W('jarry-ubu', 'Alfred Jarry', 'Ubu roi', null, 'fr', 1896, 'lit', { pub: 'Mercure de France', place: 'Paris' });
W('proust-swann', 'Marcel Proust', 'Du côté de chez Swann', null, 'fr', 1913, 'lit', { pub: 'Bernard Grasset', place: 'Paris' });
W('apollinaire-alcools', 'Guillaume Apollinaire', 'Alcools', null, 'fr', 1913, 'poe', { pub: 'Mercure de France', place: 'Paris' });

// ============================================================ German
W('kant-kritik', KANT, 'Kritik der reinen Vernunft', null, 'de', 1781, 'phil', { pub: 'Johann Friedrich Hartknoch', place: 'Riga' });
W('kant-frieden', KANT, 'Zum ewigen Frieden', 'Ein philosophischer Entwurf', 'de', 1795, 'phil', { pub: 'Friedrich Nicolovius', place: 'Königsberg', d: 'A peace treaty written by a philosopher, with preliminary articles, definitive articles and a secret one.' });
W('goethe-werther', GOETHE, 'Die Leiden des jungen Werthers', null, 'de', 1774, 'lit', { pub: 'Weygand', place: 'Leipzig', d: 'An epistolary novel of unrequited love that made the young Goethe famous all over Europe, and was translated almost at once.' });
W('goethe-faust', GOETHE, 'Faust', 'Eine Tragödie', 'de', 1808, 'lit', { pub: 'J. G. Cotta', place: 'Tübingen' });
W('schiller-rauber', SCHILLER, 'Die Räuber', 'Ein Schauspiel', 'de', 1781, 'lit');
W('schiller-tell', SCHILLER, 'Wilhelm Tell', 'Schauspiel', 'de', 1804, 'lit', { pub: 'J. G. Cotta', place: 'Tübingen' });
W('hegel-phanomenologie', 'Georg Wilhelm Friedrich Hegel', 'Phänomenologie des Geistes', null, 'de', 1807, 'phil', { pub: 'Joseph Anton Goebhardt', place: 'Bamberg und Würzburg' });
W('grimm-marchen', ['Jacob Grimm', 'Wilhelm Grimm'], 'Kinder- und Hausmärchen', null, 'de', 1812, 'lit', { pub: 'Realschulbuchhandlung', place: 'Berlin', d: 'The first volume of the tales collected by the brothers Grimm, much rewritten in later editions.' });
W('hoffmann-elixiere', 'E. T. A. Hoffmann', 'Die Elixiere des Teufels', null, 'de', 1815, 'lit', { pub: 'Duncker und Humblot', place: 'Berlin' });
W('hoffmann-sandmann', 'E. T. A. Hoffmann', 'Der Sandmann', null, 'de', 1816, 'lit', { d: 'First published in the collection Nachtstücke.' });
W('schopenhauer-welt', 'Arthur Schopenhauer', 'Die Welt als Wille und Vorstellung', null, 'de', 1819, 'phil', { pub: 'F. A. Brockhaus', place: 'Leipzig' });
W('heine-lieder', HEINE, 'Buch der Lieder', null, 'de', 1827, 'poe', { pub: 'Hoffmann und Campe', place: 'Hamburg' });
W('heine-wintermarchen', HEINE, 'Deutschland. Ein Wintermärchen', null, 'de', 1844, 'poe', { pub: 'Hoffmann und Campe', place: 'Hamburg', d: 'A satirical verse journey from Paris to Hamburg through a Germany of censors and customs officers.' });
W('buchner-landbote', [BUCHNER, 'Friedrich Ludwig Weidig'], 'Der Hessische Landbote', null, 'de', 1834, 'pol', { place: 'Offenbach', d: 'A clandestine pamphlet to the peasants of Hesse, opening with the motto "Friede den Hütten! Krieg den Palästen!".' });
W('buchner-danton', BUCHNER, 'Dantons Tod', 'Dramatische Bilder aus Frankreichs Schreckensherrschaft', 'de', 1835, 'lit', { pub: 'J. D. Sauerländer', place: 'Frankfurt am Main' });
W('buchner-woyzeck', BUCHNER, 'Woyzeck', null, 'de', 1879, 'lit', { d: 'An unfinished play left in fragments at Büchner\'s death in 1837 and published only decades later.' });
W('feuerbach-wesen', 'Ludwig Feuerbach', 'Das Wesen des Christentums', null, 'de', 1841, 'phil', { pub: 'Otto Wigand', place: 'Leipzig' });
W('stirner-einzige', 'Max Stirner', 'Der Einzige und sein Eigentum', null, 'de', 1844, 'phil', { pub: 'Otto Wigand', place: 'Leipzig', d: 'Every cause — God, humanity, the nation — is a "spook" that asks the individual to sacrifice himself. Stirner\'s only book, forgotten and rediscovered at the end of the century.' });
W('engels-lage', ENGELS, 'Die Lage der arbeitenden Klasse in England', 'Nach eigner Anschauung und authentischen Quellen', 'de', 1845, 'pol', { pub: 'Otto Wigand', place: 'Leipzig', d: 'Written by a twenty-four-year-old after two years in Manchester: the first great description of the industrial working class.' });
W('marx-manifest', [MARX, ENGELS], 'Manifest der Kommunistischen Partei', null, 'de', 1848, 'pol', { place: 'London', d: 'Written for the Communist League and printed in London weeks before the revolutions of 1848. It has since been translated into more languages than almost any other political text.' });
W('marx-lohnarbeit', MARX, 'Lohnarbeit und Kapital', null, 'de', 1849, 'pol', { d: 'Lectures to a workers\' association, first published as articles in the Neue Rheinische Zeitung.' });
W('marx-brumaire', MARX, 'Der achtzehnte Brumaire des Louis Bonaparte', null, 'de', 1852, 'hist', { place: 'New York', d: 'Published in Joseph Weydemeyer\'s review Die Revolution: history repeating itself, the first time as tragedy, the second as farce.' });
W('marx-kapital', MARX, 'Das Kapital', 'Kritik der politischen Oekonomie. Erster Band', 'de', 1867, 'pol', { pub: 'Otto Meissner', place: 'Hamburg', d: 'The first volume, the only one published in Marx\'s lifetime: the commodity, money, surplus value and the working day.' });
W('engels-ursprung', ENGELS, 'Der Ursprung der Familie, des Privateigenthums und des Staats', null, 'de', 1884, 'pol', { place: 'Hottingen-Zürich' });
W('droste-judenbuche', 'Annette von Droste-Hülshoff', 'Die Judenbuche', 'Ein Sittengemälde aus dem gebirgichten Westfalen', 'de', 1842, 'lit');
W('mendel-versuche', 'Gregor Mendel', 'Versuche über Pflanzen-Hybriden', null, 'de', 1866, 'sci', { place: 'Brünn', d: 'Eight years of crossing garden peas, reported to the natural history society of Brünn and ignored for thirty-four years.' });
W('humboldt-kosmos', 'Alexander von Humboldt', 'Kosmos', 'Entwurf einer physischen Weltbeschreibung', 'de', 1845, 'sci', { pub: 'J. G. Cotta', place: 'Stuttgart und Tübingen' });
W('fontane-irrungen', FONTANE, 'Irrungen, Wirrungen', null, 'de', 1888, 'lit');
W('fontane-effi', FONTANE, 'Effi Briest', null, 'de', 1895, 'lit', { pub: 'F. Fontane & Co.', place: 'Berlin' });
W('nietzsche-geburt', NIETZSCHE, 'Die Geburt der Tragödie aus dem Geiste der Musik', null, 'de', 1872, 'phil', { pub: 'E. W. Fritzsch', place: 'Leipzig' });
W('nietzsche-wissenschaft', NIETZSCHE, 'Die fröhliche Wissenschaft', null, 'de', 1882, 'phil', { pub: 'Ernst Schmeitzner', place: 'Chemnitz' });
W('nietzsche-zarathustra', NIETZSCHE, 'Also sprach Zarathustra', 'Ein Buch für Alle und Keinen', 'de', 1883, 'phil', { pub: 'Ernst Schmeitzner', place: 'Chemnitz', d: 'The prophet Zarathustra comes down from his mountain to announce the overman. Published in four parts between 1883 and 1885.' });
W('nietzsche-jenseits', NIETZSCHE, 'Jenseits von Gut und Böse', 'Vorspiel einer Philosophie der Zukunft', 'de', 1886, 'phil', { place: 'Leipzig' });
W('nietzsche-genealogie', NIETZSCHE, 'Zur Genealogie der Moral', 'Eine Streitschrift', 'de', 1887, 'phil', { pub: 'C. G. Naumann', place: 'Leipzig' });
W('suttner-waffen', 'Bertha von Suttner', 'Die Waffen nieder!', 'Eine Lebensgeschichte', 'de', 1889, 'lit', { pub: 'E. Pierson', place: 'Dresden', d: 'A novel against war that became a manifesto of the peace movement; its author was the first woman to receive the Nobel Peace Prize.' });
W('tonnies-gemeinschaft', 'Ferdinand Tönnies', 'Gemeinschaft und Gesellschaft', null, 'de', 1887, 'phil', { pub: 'Fues', place: 'Leipzig' });
W('haeckel-weltrathsel', 'Ernst Haeckel', 'Die Welträthsel', 'Gemeinverständliche Studien über monistische Philosophie', 'de', 1899, 'sci', { pub: 'Emil Strauß', place: 'Bonn' });
W('simmel-geld', 'Georg Simmel', 'Philosophie des Geldes', null, 'de', 1900, 'phil', { pub: 'Duncker & Humblot', place: 'Leipzig' });
W('freud-traumdeutung', 'Sigmund Freud', 'Die Traumdeutung', null, 'de', 1900, 'sci', { pub: 'Franz Deuticke', place: 'Leipzig und Wien' });
W('weber-ethik', 'Max Weber', 'Die protestantische Ethik und der Geist des Kapitalismus', null, 'de', 1905, 'phil');
W('luxemburg-sozialreform', LUXEMBURG, 'Sozialreform oder Revolution?', null, 'de', 1899, 'pol', { place: 'Leipzig', d: 'Luxemburg\'s reply to Eduard Bernstein\'s revisionism, written when she was twenty-eight.' });
W('luxemburg-akkumulation', LUXEMBURG, 'Die Akkumulation des Kapitals', 'Ein Beitrag zur ökonomischen Erklärung des Imperialismus', 'de', 1913, 'pol', { place: 'Berlin' });
W('luxemburg-revolution', LUXEMBURG, 'Die russische Revolution', 'Eine kritische Würdigung', 'de', 1922, 'pol', { place: 'Berlin', d: 'Written in prison in 1918 and published by Paul Levi after her murder: "Freiheit ist immer Freiheit des Andersdenkenden".' });
W('landauer-revolution', LANDAUER, 'Die Revolution', null, 'de', 1907, 'pol', { pub: 'Rütten & Loening', place: 'Frankfurt am Main' });
W('landauer-aufruf', LANDAUER, 'Aufruf zum Sozialismus', null, 'de', 1911, 'pol', { place: 'Berlin', d: 'Socialism not as a future state but as something to begin now, in small communities.' });
W('muhsam-wuste', MUHSAM, 'Die Wüste', 'Gedichte', 'de', 1904, 'poe', { place: 'Berlin', d: 'The first book of poems by the bohemian poet and anarchist Erich Mühsam.' });
W('muhsam-krater', MUHSAM, 'Der Krater', 'Gedichte', 'de', 1909, 'poe', { place: 'Berlin' });
W('muhsam-befreiung', MUHSAM, 'Die Befreiung der Gesellschaft vom Staat', 'Was ist kommunistischer Anarchismus?', 'de', 1933, 'pol', { place: 'Berlin', d: 'Mühsam\'s last book, published in the year of his arrest by the Nazis; he was murdered in the Oranienburg camp in 1934.' });
W('kafka-verwandlung', KAFKA, 'Die Verwandlung', null, 'de', 1915, 'lit', { pub: 'Kurt Wolff', place: 'Leipzig', d: 'Gregor Samsa, a travelling salesman, wakes up one morning transformed into an insect.' });
W('kafka-process', KAFKA, 'Der Process', null, 'de', 1925, 'lit', { pub: 'Die Schmiede', place: 'Berlin' });
W('kafka-schloss', KAFKA, 'Das Schloss', null, 'de', 1926, 'lit', { pub: 'Kurt Wolff', place: 'München' });
W('rilke-stundenbuch', RILKE, 'Das Stunden-Buch', null, 'de', 1905, 'poe', { pub: 'Insel', place: 'Leipzig' });
W('rilke-malte', RILKE, 'Die Aufzeichnungen des Malte Laurids Brigge', null, 'de', 1910, 'lit', { pub: 'Insel', place: 'Leipzig' });
W('rilke-elegien', RILKE, 'Duineser Elegien', null, 'de', 1923, 'poe', { pub: 'Insel', place: 'Leipzig' });
W('schnitzler-gustl', SCHNITZLER, 'Leutnant Gustl', null, 'de', 1900, 'lit');
W('schnitzler-traumnovelle', SCHNITZLER, 'Traumnovelle', null, 'de', 1926, 'lit', { pub: 'S. Fischer', place: 'Berlin' });
W('trakl-gedichte', 'Georg Trakl', 'Gedichte', null, 'de', 1913, 'poe', { pub: 'Kurt Wolff', place: 'Leipzig' });

// ============================================================ Russian
W('pushkin-onegin', PUSHKIN, 'Евгений Онегин', null, 'ru', 1833, 'poe', { place: 'Санкт-Петербург', d: 'A novel in verse, first published in instalments and then as a whole.' });
W('pushkin-dochka', PUSHKIN, 'Капитанская дочка', null, 'ru', 1836, 'lit');
W('gogol-revizor', GOGOL, 'Ревизор', null, 'ru', 1836, 'lit');
W('gogol-dushi', GOGOL, 'Мёртвые души', null, 'ru', 1842, 'lit', { d: 'Chichikov travels the provinces buying the names of serfs who have died since the last census.' });
W('gogol-shinel', GOGOL, 'Шинель', null, 'ru', 1842, 'lit');
W('lermontov-geroi', 'Mikhail Lermontov', 'Герой нашего времени', null, 'ru', 1840, 'lit');
W('turgenev-zapiski', TURGENEV, 'Записки охотника', null, 'ru', 1852, 'lit');
W('turgenev-otsy', TURGENEV, 'Отцы и дети', null, 'ru', 1862, 'lit', { d: 'The young nihilist Bazarov visits the estates of his friend\'s family. The novel that put the word "nihilist" into circulation.' });
W('goncharov-oblomov', 'Ivan Goncharov', 'Обломов', null, 'ru', 1859, 'lit');
W('chernyshevsky-chto', 'Nikolai Chernyshevsky', 'Что делать?', null, 'ru', 1863, 'lit', { d: 'Written in the Peter and Paul Fortress and passed by the censors by mistake; a novel of cooperative workshops and new people that shaped generations of Russian radicals.' });
W('dostoevsky-podpolye', DOSTOEVSKY, 'Записки из подполья', null, 'ru', 1864, 'lit');
W('dostoevsky-prestuplenie', DOSTOEVSKY, 'Преступление и наказание', null, 'ru', 1866, 'lit', { d: 'A poor student in St Petersburg kills a pawnbroker to prove a theory, and cannot live with the proof.' });
W('dostoevsky-idiot', DOSTOEVSKY, 'Идиот', null, 'ru', 1869, 'lit');
W('dostoevsky-besy', DOSTOEVSKY, 'Бесы', null, 'ru', 1872, 'lit');
W('dostoevsky-karamazovy', DOSTOEVSKY, 'Братья Карамазовы', null, 'ru', 1880, 'lit', { d: 'Dostoevsky\'s last novel: a parricide, three brothers and the Grand Inquisitor.' });
W('tolstoy-voina', TOLSTOY, 'Война и мир', null, 'ru', 1869, 'lit', { d: 'Five aristocratic families through the Napoleonic wars, interrupted by essays on the nature of history.' });
W('tolstoy-anna', TOLSTOY, 'Анна Каренина', null, 'ru', 1878, 'lit');
W('tolstoy-ilyich', TOLSTOY, 'Смерть Ивана Ильича', null, 'ru', 1886, 'lit');
W('tolstoy-voskresenie', TOLSTOY, 'Воскресение', null, 'ru', 1899, 'lit', { d: 'Tolstoy\'s last novel, written to raise money for the Doukhobors; a juror recognises in the accused a woman he once seduced.' });
W('bakunin-gosudarstvennost', BAKUNIN, 'Государственность и анархия', null, 'ru', 1873, 'pol', { place: 'Цюрих', d: 'Written in Russian, printed in Switzerland and smuggled into Russia.' });
W('chekhov-palata', CHEKHOV, 'Палата № 6', null, 'ru', 1892, 'lit');
W('chekhov-chayka', CHEKHOV, 'Чайка', null, 'ru', 1896, 'lit');
W('chekhov-dama', CHEKHOV, 'Дама с собачкой', null, 'ru', 1899, 'lit');
W('chekhov-sad', CHEKHOV, 'Вишнёвый сад', null, 'ru', 1904, 'lit');
W('gorky-dno', GORKY, 'На дне', null, 'ru', 1902, 'lit');
W('gorky-mat', GORKY, 'Мать', null, 'ru', 1907, 'lit');
W('kropotkin-etika', KROPOTKIN, 'Этика', null, 'ru', 1922, 'phil', { d: 'The first volume of an ethics grounded in mutual aid, left unfinished at the author\'s death in 1921.' });
W('andreyev-povesheny', 'Leonid Andreyev', 'Рассказ о семи повешенных', null, 'ru', 1908, 'lit');
W('blok-dvenadtsat', 'Alexander Blok', 'Двенадцать', null, 'ru', 1918, 'poe');
W('tsvetaeva-albom', 'Marina Tsvetaeva', 'Вечерний альбом', null, 'ru', 1910, 'poe');

// ============================================================ Spanish and Catalan
W('cervantes-quijote', CERVANTES, 'El ingenioso hidalgo don Quijote de la Mancha', null, 'es', 1605, 'lit', { pub: 'Juan de la Cuesta', place: 'Madrid', d: 'A country gentleman reads so many romances of chivalry that he sets out to become a knight-errant, with Sancho Panza as his squire.' });
W('cervantes-novelas', CERVANTES, 'Novelas ejemplares', null, 'es', 1613, 'lit', { pub: 'Juan de la Cuesta', place: 'Madrid' });
W('becquer-rimas', 'Gustavo Adolfo Bécquer', 'Rimas', null, 'es', 1871, 'poe', { place: 'Madrid', d: 'Published by his friends the year after his death.' });
W('galdos-perfecta', GALDOS, 'Doña Perfecta', null, 'es', 1876, 'lit');
W('galdos-fortunata', GALDOS, 'Fortunata y Jacinta', 'Dos historias de casadas', 'es', 1887, 'lit', { place: 'Madrid' });
W('galdos-misericordia', GALDOS, 'Misericordia', null, 'es', 1897, 'lit', { place: 'Madrid' });
W('clarin-regenta', 'Leopoldo Alas «Clarín»', 'La Regenta', null, 'es', 1884, 'lit', { pub: 'Daniel Cortezo', place: 'Barcelona' });
W('pardobazan-pazos', 'Emilia Pardo Bazán', 'Los pazos de Ulloa', null, 'es', 1886, 'lit', { pub: 'Daniel Cortezo', place: 'Barcelona' });
W('unamuno-sentimiento', UNAMUNO, 'Del sentimiento trágico de la vida', null, 'es', 1913, 'phil', { place: 'Madrid' });
W('unamuno-niebla', UNAMUNO, 'Niebla', null, 'es', 1914, 'lit', { place: 'Madrid', d: 'Augusto Pérez goes to Salamanca to argue with his author, Unamuno, about whether he may die.' });
W('amachado-soledades', ANTONIO_MACHADO, 'Soledades', null, 'es', 1903, 'poe', { place: 'Madrid' });
W('amachado-campos', ANTONIO_MACHADO, 'Campos de Castilla', null, 'es', 1912, 'poe', { pub: 'Renacimiento', place: 'Madrid' });
W('lorca-romancero', 'Federico García Lorca', 'Primer romancero gitano', null, 'es', 1928, 'poe', { pub: 'Revista de Occidente', place: 'Madrid' });
W('lorenzo-proletariado', 'Anselmo Lorenzo', 'El proletariado militante', 'Memorias de un internacional', 'es', 1901, 'hist', { place: 'Barcelona', d: 'The memoirs of a Madrid typographer who met Bakunin\'s envoy Fanelli in 1868 and helped found the Spanish section of the International.' });
W('ferrer-escuela', 'Francisco Ferrer Guardia', 'La Escuela Moderna', 'Póstuma explicación y alcance de la enseñanza racionalista', 'es', 1912, 'phil', { place: 'Barcelona', d: 'The founder of the Escuela Moderna explains rationalist, coeducational and secular schooling; published three years after his execution.' });
W('sarmiento-facundo', 'Domingo Faustino Sarmiento', 'Civilización i barbarie', 'Vida de Juan Facundo Quiroga', 'es', 1845, 'hist', { place: 'Santiago de Chile' });
W('hernandez-fierro', 'José Hernández', 'El gaucho Martín Fierro', null, 'es', 1872, 'poe', { place: 'Buenos Aires', d: 'The lament of a gaucho drafted into the frontier army, sung in the language of the pampa.' });
W('isaacs-maria', 'Jorge Isaacs', 'María', null, 'es', 1867, 'lit', { place: 'Bogotá' });
W('blestgana-rivas', 'Alberto Blest Gana', 'Martín Rivas', null, 'es', 1862, 'lit', { place: 'Santiago de Chile' });
W('marti-ismaelillo', MARTI, 'Ismaelillo', null, 'es', 1882, 'poe', { place: 'Nueva York' });
W('marti-sencillos', MARTI, 'Versos sencillos', null, 'es', 1891, 'poe', { place: 'Nueva York', d: '"Yo soy un hombre sincero / de donde crece la palma": short poems written in the Catskills and printed in New York.' });
W('marti-america', MARTI, 'Nuestra América', null, 'es', 1891, 'pol', { d: 'An essay calling the peoples of Latin America to know themselves before the power of the North.' });
W('dario-azul', DARIO, 'Azul...', null, 'es', 1888, 'poe', { place: 'Valparaíso', d: 'Stories and poems printed in Chile that opened the modernista movement.' });
W('dario-prosas', DARIO, 'Prosas profanas y otros poemas', null, 'es', 1896, 'poe', { place: 'Buenos Aires' });
W('dario-cantos', DARIO, 'Cantos de vida y esperanza', null, 'es', 1905, 'poe', { place: 'Madrid' });
W('gonzalezprada-paginas', GONZALEZ_PRADA, 'Páginas libres', null, 'es', 1894, 'pol', { place: 'París' });
W('gonzalezprada-horas', GONZALEZ_PRADA, 'Horas de lucha', null, 'es', 1908, 'pol', { place: 'Lima' });
W('rodo-ariel', 'José Enrique Rodó', 'Ariel', null, 'es', 1900, 'phil', { place: 'Montevideo' });
W('barrett-moralidades', BARRETT, 'Moralidades actuales', null, 'es', 1910, 'pol', { place: 'Montevideo' });
W('barrett-dolor', BARRETT, 'El dolor paraguayo', null, 'es', 1911, 'pol', { place: 'Montevideo', d: 'Articles on the misery of Paraguayan workers and the yerba plantations, collected the year after the author\'s death.' });
W('quiroga-cuentos', QUIROGA, 'Cuentos de amor de locura y de muerte', null, 'es', 1917, 'lit', { place: 'Buenos Aires' });
W('quiroga-selva', QUIROGA, 'Cuentos de la selva', null, 'es', 1918, 'lit', { place: 'Buenos Aires' });
W('agustini-libro', 'Delmira Agustini', 'El libro blanco', null, 'es', 1907, 'poe', { place: 'Montevideo' });
W('verdaguer-atlantida', 'Jacint Verdaguer', 'L\'Atlàntida', null, 'ca', 1877, 'poe', { place: 'Barcelona' });
W('verdaguer-canigo', 'Jacint Verdaguer', 'Canigó', null, 'ca', 1886, 'poe', { place: 'Barcelona' });
W('oller-febre', 'Narcís Oller', 'La febre d\'or', null, 'ca', 1890, 'lit', { place: 'Barcelona' });
W('catala-solitud', 'Víctor Català', 'Solitud', null, 'ca', 1905, 'lit', { place: 'Barcelona', d: 'Mila follows her husband to a hermitage in the mountains. Víctor Català was the pen name of Caterina Albert.' });

// ============================================================ Portuguese
W('camoes-lusiadas', 'Luís de Camões', 'Os Lusíadas', null, 'pt', 1572, 'poe', { pub: 'António Gonçalves', place: 'Lisboa' });
W('eca-amaro', EÇA, 'O Crime do Padre Amaro', null, 'pt', 1875, 'lit', { place: 'Lisboa' });
W('eca-basilio', EÇA, 'O Primo Basílio', null, 'pt', 1878, 'lit', { place: 'Porto' });
W('eca-maias', EÇA, 'Os Maias', 'Episódios da vida romântica', 'pt', 1888, 'lit', { pub: 'Lugan & Genelioux', place: 'Porto' });
W('assis-bras', MACHADO_ASSIS, 'Memórias Póstumas de Brás Cubas', null, 'pt', 1881, 'lit', { place: 'Rio de Janeiro', d: 'A dead man writes his memoirs, dedicated to the first worm that gnawed his corpse.' });
W('assis-alienista', MACHADO_ASSIS, 'O Alienista', null, 'pt', 1882, 'lit', { d: 'A doctor opens an asylum in a small town and, little by little, locks up everyone. First collected in Papéis Avulsos.' });
W('assis-quincas', MACHADO_ASSIS, 'Quincas Borba', null, 'pt', 1891, 'lit', { place: 'Rio de Janeiro' });
W('assis-casmurro', MACHADO_ASSIS, 'Dom Casmurro', null, 'pt', 1899, 'lit', { pub: 'H. Garnier', place: 'Rio de Janeiro' });
W('azevedo-cortico', 'Aluísio Azevedo', 'O Cortiço', null, 'pt', 1890, 'lit', { place: 'Rio de Janeiro' });
W('cunha-sertoes', 'Euclides da Cunha', 'Os Sertões', 'Campanha de Canudos', 'pt', 1902, 'hist', { pub: 'Laemmert', place: 'Rio de Janeiro', d: 'The war against the settlement of Canudos in the backlands of Bahia, by a journalist who followed the army.' });
W('barreto-policarpo', 'Lima Barreto', 'Triste Fim de Policarpo Quaresma', null, 'pt', 1915, 'lit', { place: 'Rio de Janeiro' });

// ============================================================ Greek
W('roidis-papissa', 'Εμμανουήλ Ροΐδης', 'Η Πάπισσα Ιωάννα', null, 'el', 1866, 'lit', { place: 'Αθήνα', d: 'A satirical medieval chronicle that earned its author excommunication by the Holy Synod.' });
W('vizyinos-amartima', 'Γεώργιος Βιζυηνός', 'Το αμάρτημα της μητρός μου', null, 'el', 1883, 'lit');
W('psycharis-taxidi', 'Γιάννης Ψυχάρης', 'Το ταξίδι μου', null, 'el', 1888, 'lit', { place: 'Αθήνα', d: 'A travel book written in the spoken language, which became the manifesto of the demoticist movement.' });
W('papadiamantis-fonissa', 'Αλέξανδρος Παπαδιαμάντης', 'Η Φόνισσα', null, 'el', 1903, 'lit', { d: 'An old woman on the island of Skiathos decides that killing baby girls spares them a life of misery.' });
W('palamas-gyftos', 'Κωστής Παλαμάς', 'Ο Δωδεκάλογος του Γύφτου', null, 'el', 1907, 'poe', { place: 'Αθήνα' });
W('karyotakis-elegeia', 'Κώστας Καρυωτάκης', 'Ελεγεία και σάτιρες', null, 'el', 1927, 'poe', { place: 'Αθήνα' });
W('cavafy-poiimata', 'Κωνσταντίνος Π. Καβάφης', 'Ποιήματα', null, 'el', 1935, 'poe', { place: 'Αλεξάνδρεια', d: 'The first edition of Cavafy\'s collected poems, published in Alexandria two years after his death.' });

// ============================================================ Croatian
W('mazuranic-smrt', 'Ivan Mažuranić', 'Smrt Smail-age Čengića', null, 'hr', 1846, 'poe', { place: 'Zagreb', d: 'An epic poem in five cantos on the death of an Ottoman tax-collector at the hands of Montenegrin rebels.' });
W('senoa-zlato', SENOA, 'Zlatarovo zlato', null, 'hr', 1871, 'lit', { place: 'Zagreb', d: 'The first Croatian historical novel, set in sixteenth-century Zagreb.' });
W('senoa-buna', SENOA, 'Seljačka buna', null, 'hr', 1877, 'lit', { place: 'Zagreb', d: 'The peasant revolt of 1573 and its leader Matija Gubec.' });
W('kovacic-registratura', 'Ante Kovačić', 'U registraturi', null, 'hr', 1888, 'lit', { place: 'Zagreb' });
W('kozarac-kapitali', 'Josip Kozarac', 'Mrtvi kapitali', null, 'hr', 1890, 'lit', { place: 'Zagreb' });
W('novak-stipancici', 'Vjenceslav Novak', 'Posljednji Stipančići', null, 'hr', 1899, 'lit', { place: 'Zagreb' });
W('kranjcevic-bugarkinje', KRANJCEVIC, 'Bugarkinje', null, 'hr', 1885, 'poe', { place: 'Zagreb' });
W('kranjcevic-trzaji', KRANJCEVIC, 'Trzaji', null, 'hr', 1902, 'poe', { place: 'Sarajevo' });
W('matos-iverje', 'Antun Gustav Matoš', 'Iverje', null, 'hr', 1899, 'lit', { place: 'Mostar' });
W('brlic-hlapic', BRLIC, 'Čudnovate zgode šegrta Hlapića', null, 'hr', 1913, 'lit', { place: 'Zagreb', d: 'A shoemaker\'s apprentice runs away from his master and travels the roads with Gita, a girl from a circus; a much-loved Croatian children\'s book.' });
W('brlic-price', BRLIC, 'Priče iz davnine', null, 'hr', 1916, 'lit', { place: 'Zagreb' });

// ============================================================ Nordic languages
W('strindberg-roda', STRINDBERG, 'Röda rummet', null, 'sv', 1879, 'lit', { place: 'Stockholm', d: 'Young artists and journalists in the Stockholm of the 1870s; often called the first modern Swedish novel.' });
W('strindberg-hemso', STRINDBERG, 'Hemsöborna', null, 'sv', 1887, 'lit', { place: 'Stockholm' });
W('strindberg-julie', STRINDBERG, 'Fröken Julie', null, 'sv', 1888, 'lit', { place: 'Stockholm' });
W('lagerlof-gosta', LAGERLOF, 'Gösta Berlings saga', null, 'sv', 1891, 'lit', { place: 'Stockholm' });
W('lagerlof-nils', LAGERLOF, 'Nils Holgerssons underbara resa genom Sverige', null, 'sv', 1906, 'lit', { place: 'Stockholm', d: 'Commissioned as a geography reader for schools: a boy shrunk to the size of a thumb flies across Sweden on the back of a goose.' });
W('key-barnets', 'Ellen Key', 'Barnets århundrade', null, 'sv', 1900, 'phil', { place: 'Stockholm' });
W('soderberg-glas', 'Hjalmar Söderberg', 'Doktor Glas', null, 'sv', 1905, 'lit', { place: 'Stockholm' });
W('ibsen-dukkehjem', IBSEN, 'Et dukkehjem', null, 'no', 1879, 'lit', { pub: 'Gyldendalske Boghandel', place: 'København', d: 'Nora leaves her husband and children at the end of the third act, and the door she shuts was heard all over Europe.' });
W('ibsen-gengangere', IBSEN, 'Gengangere', null, 'no', 1881, 'lit', { pub: 'Gyldendalske Boghandel', place: 'København' });
W('ibsen-folkefiende', IBSEN, 'En folkefiende', null, 'no', 1882, 'lit', { pub: 'Gyldendalske Boghandel', place: 'København' });
W('hamsun-sult', 'Knut Hamsun', 'Sult', null, 'no', 1890, 'lit', { place: 'København' });
W('kierkegaard-enten', KIERKEGAARD, 'Enten – Eller', 'Et Livs-Fragment', 'da', 1843, 'phil', { place: 'Kjøbenhavn', d: 'Published under the pseudonym Victor Eremita: the aesthetic and the ethical life, set side by side.' });
W('kierkegaard-frygt', KIERKEGAARD, 'Frygt og Bæven', null, 'da', 1843, 'phil', { place: 'Kjøbenhavn' });
W('andersen-eventyr', 'Hans Christian Andersen', 'Eventyr, fortalte for Børn', null, 'da', 1835, 'lit', { pub: 'C. A. Reitzel', place: 'Kjøbenhavn' });

// ============================================================ Dutch, Central European, Esperanto
W('multatuli-havelaar', 'Multatuli', 'Max Havelaar', 'of de koffij-veilingen der Nederlandsche Handel-Maatschappy', 'nl', 1860, 'lit', { pub: 'J. de Ruyter', place: 'Amsterdam', d: 'A colonial official\'s indictment of the exploitation of the Javanese, disguised as the papers of a coffee broker.' });
W('kartini-duisternis', 'Raden Adjeng Kartini', 'Door duisternis tot licht', 'Gedachten over en voor het Javaansche volk', 'nl', 1911, 'pol', { place: 'Semarang', d: 'Letters of a young Javanese noblewoman on education, women and colonial rule, collected after her death by J. H. Abendanon.' });
W('domela-christen', 'Ferdinand Domela Nieuwenhuis', 'Van Christen tot anarchist', 'Gedenkschriften', 'nl', 1910, 'hist', { place: 'Amsterdam' });
W('mickiewicz-tadeusz', 'Adam Mickiewicz', 'Pan Tadeusz', 'czyli Ostatni zajazd na Litwie', 'pl', 1834, 'poe', { place: 'Paryż' });
W('prus-lalka', PRUS, 'Lalka', null, 'pl', 1890, 'lit', { place: 'Warszawa' });
W('orzeszkowa-niemnem', 'Eliza Orzeszkowa', 'Nad Niemnem', null, 'pl', 1888, 'lit', { place: 'Warszawa' });
W('sienkiewicz-quovadis', 'Henryk Sienkiewicz', 'Quo vadis', 'Powieść z czasów Nerona', 'pl', 1896, 'lit', { place: 'Warszawa' });
W('nemcova-babicka', 'Božena Němcová', 'Babička', null, 'cs', 1855, 'lit', { place: 'Praha' });
W('hasek-svejk', 'Jaroslav Hašek', 'Osudy dobrého vojáka Švejka za světové války', null, 'cs', 1921, 'lit', { place: 'Praha', d: 'The good soldier Švejk survives the First World War by obeying every order to the letter. Published in cheap instalments by the author himself.' });
W('capek-rur', 'Karel Čapek', 'R.U.R.', 'Rossum\'s Universal Robots', 'cs', 1920, 'lit', { pub: 'Aventinum', place: 'Praha', d: 'The play that gave the world the word "robot".' });
W('petofi-janos', PETOFI, 'János vitéz', null, 'hu', 1845, 'poe', { place: 'Pest' });
W('madach-tragedia', 'Imre Madách', 'Az ember tragédiája', null, 'hu', 1861, 'lit', { place: 'Pest' });
W('zamenhof-fundamento', 'L. L. Zamenhof', 'Fundamento de Esperanto', null, 'eo', 1905, 'sci', { pub: 'Hachette', place: 'Paris', d: 'The grammar, exercises and basic dictionary declared untouchable by the first World Esperanto Congress.' });

// ============================================================ Asia, Africa, Arabic
W('soseki-neko', SOSEKI, '吾輩は猫である', null, 'ja', 1905, 'lit', { d: 'A nameless cat observes the household of a schoolteacher and his visitors.' });
W('soseki-botchan', SOSEKI, '坊っちゃん', null, 'ja', 1906, 'lit');
W('soseki-kokoro', SOSEKI, 'こゝろ', null, 'ja', 1914, 'lit', { pub: '岩波書店', place: '東京' });
W('akutagawa-rashomon', AKUTAGAWA, '羅生門', null, 'ja', 1915, 'lit');
W('akutagawa-kumo', AKUTAGAWA, '蜘蛛の糸', null, 'ja', 1918, 'lit');
W('akutagawa-yabu', AKUTAGAWA, '藪の中', null, 'ja', 1922, 'lit', { d: 'A murder in a grove told by seven witnesses, including the dead man through a medium, who do not agree.' });
W('higuchi-takekurabe', 'Higuchi Ichiyō', 'たけくらべ', null, 'ja', 1895, 'lit');
W('kotoku-teikoku', 'Kōtoku Shūsui', '廿世紀之怪物帝国主義', null, 'ja', 1901, 'pol', { place: '東京', d: 'One of the first critiques of imperialism written in Asia, by the journalist later executed in the High Treason Incident of 1911.' });
W('luxun-nahan', LU_XUN, '吶喊', null, 'zh', 1923, 'lit', { place: '北京', d: 'Lu Xun\'s first collection of stories, including "A Madman\'s Diary" and "The True Story of Ah Q".' });
W('luxun-panghuang', LU_XUN, '彷徨', null, 'zh', 1926, 'lit', { place: '北京' });
W('luxun-yecao', LU_XUN, '野草', null, 'zh', 1927, 'poe', { place: '北京' });
W('tagore-ghare', TAGORE, 'ঘরে বাইরে', null, 'bn', 1916, 'lit', { d: 'A novel of the Swadeshi movement told in turn by a wife, her husband and his friend.' });
W('gandhi-hind', 'Mohandas Karamchand Gandhi', 'હિંદ સ્વરાજ', null, 'gu', 1909, 'pol', { d: 'Written on a ship from London to South Africa as a dialogue between a reader and an editor; banned in India soon after.' });
W('amin-tahrir', 'قاسم أمين', 'تحرير المرأة', null, 'ar', 1899, 'pol', { place: 'القاهرة', d: 'A Cairo lawyer\'s case for the education of women, which provoked a storm of replies.' });
W('gibran-ajniha', 'Kahlil Gibran', 'الأجنحة المتكسرة', null, 'ar', 1912, 'lit', { place: 'نيويورك' });
W('mofolo-moeti', MOFOLO, 'Moeti oa Bochabela', null, 'st', 1907, 'lit', { pub: 'Morija Sesuto Book Depot', place: 'Morija' });
W('mofolo-chaka', MOFOLO, 'Chaka', null, 'st', 1925, 'lit', { pub: 'Morija Sesuto Book Depot', place: 'Morija', d: 'A historical novel of the Zulu king Shaka, written in Sesotho and held back by its missionary publisher for fifteen years.' });

// ============================================================ Translations
T('manifesto-en', 'marx-manifest', 'Manifesto of the Communist Party', null, 'en', 1888, 'Samuel Moore', { pub: 'William Reeves', place: 'London', d: 'The authorised English translation, edited and annotated by Engels.' });
T('manifesto-it', 'marx-manifest', 'Il Manifesto del Partito Comunista', null, 'it', 1893, 'Pompeo Bettini', { place: 'Milano', d: 'With Engels\'s preface addressed to the Italian reader.' });
T('manifesto-ru', 'marx-manifest', 'Манифест Коммунистической партии', null, 'ru', 1882, 'Georgi Plekhanov', { place: 'Женева' });
T('kapital-ru', 'marx-kapital', 'Капитал', 'Критика политической экономии', 'ru', 1872, 'German Lopatin and Nikolai Danielson', { place: 'Санкт-Петербург', d: 'The first translation of Capital into any language, passed by the censors as too difficult to be dangerous.' });
T('kapital-fr', 'marx-kapital', 'Le Capital', null, 'fr', 1872, 'Joseph Roy', { pub: 'Maurice Lachâtre', place: 'Paris', d: 'Published in instalments and revised by Marx himself.' });
T('kapital-en', 'marx-kapital', 'Capital', 'A Critical Analysis of Capitalist Production', 'en', 1887, 'Samuel Moore and Edward Aveling', { pub: 'Swan Sonnenschein, Lowrey & Co.', place: 'London' });
T('origin-de', 'darwin-origin', 'Über die Entstehung der Arten im Thier- und Pflanzen-Reich durch natürliche Züchtung', null, 'de', 1860, 'Heinrich Georg Bronn', { pub: 'E. Schweizerbart', place: 'Stuttgart' });
T('origin-fr', 'darwin-origin', 'De l\'origine des espèces', 'ou des lois du progrès chez les êtres organisés', 'fr', 1862, 'Clémence Royer', { pub: 'Guillaumin et Cie', place: 'Paris', d: 'Royer\'s translation with her own long and combative preface.' });
T('origin-it', 'darwin-origin', 'Sull\'origine delle specie per elezione naturale', null, 'it', 1864, 'Giovanni Canestrini and Leonardo Salimbeni', { pub: 'Zanichelli', place: 'Modena' });
T('descent-de', 'darwin-descent', 'Die Abstammung des Menschen und die geschlechtliche Zuchtwahl', null, 'de', 1871, 'J. Victor Carus', { pub: 'E. Schweizerbart', place: 'Stuttgart' });
T('descent-it', 'darwin-descent', 'L\'origine dell\'uomo e la scelta in rapporto col sesso', null, 'it', 1871, 'Michele Lessona', { place: 'Torino' });
T('descent-fr', 'darwin-descent', 'La Descendance de l\'homme et la sélection sexuelle', null, 'fr', 1872, 'J.-J. Moulinié', { pub: 'C. Reinwald', place: 'Paris' });
T('subjection-de', 'mill-subjection', 'Die Hörigkeit der Frau', null, 'de', 1869, 'Jenny Hirsch', { place: 'Berlin' });
T('subjection-fr', 'mill-subjection', 'L\'Assujettissement des femmes', null, 'fr', 1869, 'Émile Cazelles', { pub: 'Guillaumin et Cie', place: 'Paris' });
T('subjection-it', 'mill-subjection', 'La servitù delle donne', null, 'it', 1870, 'Anna Maria Mozzoni', { place: 'Milano', d: 'Translated and introduced by the pioneer of the Italian women\'s movement.' });
T('conquete-en', 'kropotkin-conquete', 'The Conquest of Bread', null, 'en', 1906, null, { pub: 'Chapman & Hall', place: 'London' });
T('conquete-ru', 'kropotkin-conquete', 'Хлеб и воля', null, 'ru', 1902, null, { place: 'Лондон' });
T('mutual-de', 'kropotkin-mutual', 'Gegenseitige Hilfe in der Tier- und Menschenwelt', null, 'de', 1904, 'Gustav Landauer', { pub: 'Theod. Thomas', place: 'Leipzig' });
T('mutual-fr', 'kropotkin-mutual', 'L\'Entr\'aide, un facteur de l\'évolution', null, 'fr', 1906, 'Louise Bréal', { pub: 'Hachette', place: 'Paris' });
T('memoirs-fr', 'kropotkin-memoirs', 'Autour d\'une vie', 'Mémoires', 'fr', 1902, null, { pub: 'P.-V. Stock', place: 'Paris' });
T('memoirs-ru', 'kropotkin-memoirs', 'Записки революционера', null, 'ru', 1902, null, { place: 'Лондон' });
T('voina-fr', 'tolstoy-voina', 'La Guerre et la Paix', 'Roman historique', 'fr', 1879, 'Irène Paskévitch', { pub: 'Hachette', place: 'Paris', d: 'The first translation of the novel into a Western language, signed only "une Russe".' });
T('voina-en', 'tolstoy-voina', 'War and Peace', 'A Historical Novel', 'en', 1886, 'Clara Bell', { pub: 'William S. Gottsberger', place: 'New York' });
T('anna-fr', 'tolstoy-anna', 'Anna Karénine', null, 'fr', 1885, null, { pub: 'Hachette', place: 'Paris' });
T('anna-en', 'tolstoy-anna', 'Anna Karenina', null, 'en', 1886, 'Nathan Haskell Dole', { pub: 'Thomas Y. Crowell', place: 'New York' });
T('voskresenie-en', 'tolstoy-voskresenie', 'Resurrection', null, 'en', 1900, 'Louise Maude', { place: 'London' });
T('voskresenie-fr', 'tolstoy-voskresenie', 'Résurrection', null, 'fr', 1900, 'Teodor de Wyzewa', { place: 'Paris' });
T('crime-de', 'dostoevsky-prestuplenie', 'Raskolnikow', null, 'de', 1882, 'Wilhelm Henckel', { pub: 'Wilhelm Friedrich', place: 'Leipzig' });
T('crime-fr', 'dostoevsky-prestuplenie', 'Le Crime et le Châtiment', null, 'fr', 1884, 'Victor Derély', { pub: 'Plon', place: 'Paris' });
T('crime-en', 'dostoevsky-prestuplenie', 'Crime and Punishment', 'A Russian Realistic Novel', 'en', 1886, 'Frederick Whishaw', { pub: 'Vizetelly & Co.', place: 'London' });
T('karamazov-fr', 'dostoevsky-karamazovy', 'Les Frères Karamazov', null, 'fr', 1888, 'E. Halpérine-Kaminsky and Charles Morice', { pub: 'Plon', place: 'Paris' });
T('karamazov-en', 'dostoevsky-karamazovy', 'The Brothers Karamazov', null, 'en', 1912, 'Constance Garnett', { pub: 'William Heinemann', place: 'London' });
T('otsy-fr', 'turgenev-otsy', 'Pères et enfants', null, 'fr', 1863, null, { pub: 'Charpentier', place: 'Paris', d: 'With a preface by Prosper Mérimée.' });
T('otsy-en', 'turgenev-otsy', 'Fathers and Sons', null, 'en', 1867, 'Eugene Schuyler', { pub: 'Leypoldt & Holt', place: 'New York' });
T('einzige-en', 'stirner-einzige', 'The Ego and His Own', null, 'en', 1907, 'Steven T. Byington', { pub: 'Benj. R. Tucker', place: 'New York' });
T('einzige-fr', 'stirner-einzige', 'L\'Unique et sa propriété', null, 'fr', 1900, 'Henri Lasvignes', { pub: 'Éditions de la Revue blanche', place: 'Paris' });
T('zarathustra-en', 'nietzsche-zarathustra', 'Thus Spake Zarathustra', 'A Book for All and None', 'en', 1896, 'Alexander Tille', { pub: 'Macmillan', place: 'New York' });
T('zarathustra-fr', 'nietzsche-zarathustra', 'Ainsi parlait Zarathoustra', 'Un livre pour tous et pour personne', 'fr', 1898, 'Henri Albert', { pub: 'Mercure de France', place: 'Paris' });
T('quijote-en', 'cervantes-quijote', 'The History of the Valorous and Wittie Knight-Errant Don-Quixote of the Mancha', null, 'en', 1612, 'Thomas Shelton', { place: 'London', d: 'The first translation of Don Quixote into any language.' });
T('quijote-fr', 'cervantes-quijote', 'L\'Ingénieux Don Quixote de la Manche', null, 'fr', 1614, 'César Oudin', { place: 'Paris' });
T('quijote-it', 'cervantes-quijote', 'L\'ingegnoso cittadino Don Chisciotte della Mancia', null, 'it', 1622, 'Lorenzo Franciosini', { place: 'Venezia' });
T('principe-fr', 'machiavelli-principe', 'Le Prince', null, 'fr', 1553, 'Gaspard d\'Auvergne', { place: 'Poitiers' });
T('principe-en', 'machiavelli-principe', 'Nicholas Machiavel\'s Prince', null, 'en', 1640, 'Edward Dacres', { place: 'London' });
T('delitti-fr', 'beccaria-delitti', 'Traité des délits et des peines', null, 'fr', 1766, 'André Morellet', { place: 'Lausanne' });
T('delitti-en', 'beccaria-delitti', 'An Essay on Crimes and Punishments', null, 'en', 1767, null, { pub: 'J. Almon', place: 'London' });
T('werther-en', 'goethe-werther', 'The Sorrows of Werter', 'A German Story', 'en', 1779, null, { pub: 'J. Dodsley', place: 'London' });
T('werther-it', 'goethe-werther', 'Werther', null, 'it', 1782, 'Michiel Salom', { place: 'Venezia' });
T('looking-de', 'bellamy-looking', 'Ein Rückblick aus dem Jahre 2000 auf das Jahr 1887', null, 'de', 1890, 'Georg von Gizycki', { pub: 'Philipp Reclam jun.', place: 'Leipzig' });
T('looking-fr', 'bellamy-looking', 'Cent ans après, ou l\'An 2000', null, 'fr', 1891, null, { pub: 'E. Dentu', place: 'Paris' });
T('hamlet-de', 'shakespeare-hamlet', 'Hamlet, Prinz von Dänemark', null, 'de', 1798, 'August Wilhelm Schlegel', { pub: 'Johann Friedrich Unger', place: 'Berlin' });
T('hamlet-eo', 'shakespeare-hamlet', 'Hamleto, Reĝido de Danujo', null, 'eo', 1894, 'L. L. Zamenhof', { place: 'Nürnberg', d: 'Zamenhof\'s own translation, meant to show that the new language could carry a great literary text.' });
T('miserables-en', 'hugo-miserables', 'Les Misérables', null, 'en', 1862, 'Charles E. Wilbour', { pub: 'Carleton', place: 'New York' });
T('miserables-it', 'hugo-miserables', 'I miserabili', null, 'it', 1862, null, { pub: 'G. Daelli e C.', place: 'Milano' });
T('bovary-en', 'flaubert-bovary', 'Madame Bovary', 'Provincial Manners', 'en', 1886, 'Eleanor Marx-Aveling', { pub: 'Vizetelly & Co.', place: 'London' });
T('dieu-en', 'bakunin-dieu', 'God and the State', null, 'en', 1883, 'Benjamin R. Tucker', { place: 'Boston' });
T('propriete-en', 'proudhon-propriete', 'What Is Property?', 'An Inquiry into the Principle of Right and of Government', 'en', 1876, 'Benjamin R. Tucker', { place: 'Princeton, Mass.' });
T('pinocchio-en', 'collodi-pinocchio', 'The Story of a Puppet', 'or, The Adventures of Pinocchio', 'en', 1892, 'M. A. Murray', { pub: 'T. Fisher Unwin', place: 'London' });
T('lage-en', 'engels-lage', 'The Condition of the Working-Class in England in 1844', null, 'en', 1887, 'Florence Kelley Wischnewetzky', { pub: 'John W. Lovell Company', place: 'New York' });
T('contadini-en', 'malatesta-contadini', 'A Talk about Anarchist Communism between Two Workers', null, 'en', 1891, null, { pub: 'Freedom Press', place: 'London' });
T('montagne-en', 'reclus-montagne', 'The History of a Mountain', null, 'en', 1881, 'Bertha Ness and John Lillie', { place: 'London' });
T('malavoglia-en', 'verga-malavoglia', 'The House by the Medlar-Tree', null, 'en', 1890, 'Mary A. Craig', { pub: 'Harper & Brothers', place: 'New York' });
T('tour-en', 'verne-tour', 'Around the World in Eighty Days', null, 'en', 1873, 'George M. Towle', { pub: 'James R. Osgood', place: 'Boston' });
T('vingt-en', 'verne-vingt', 'Twenty Thousand Leagues under the Sea', null, 'en', 1872, 'Lewis Mercier', { pub: 'Sampson Low', place: 'London' });
T('dukkehjem-en', 'ibsen-dukkehjem', 'A Doll\'s House', null, 'en', 1889, 'William Archer', { pub: 'T. Fisher Unwin', place: 'London' });
T('chaka-en', 'mofolo-chaka', 'Chaka', 'An Historical Romance', 'en', 1931, 'F. H. Dutton', { pub: 'Oxford University Press', place: 'London' });
T('havelaar-en', 'multatuli-havelaar', 'Max Havelaar', 'or, The Coffee Auctions of the Dutch Trading Company', 'en', 1868, 'Alphonse Nahuÿs', { place: 'Edinburgh' });
T('kartini-en', 'kartini-duisternis', 'Letters of a Javanese Princess', null, 'en', 1920, 'Agnes Louise Symmers', { place: 'London' });
T('ghare-en', 'tagore-ghare', 'The Home and the World', null, 'en', 1919, 'Surendranath Tagore', { pub: 'Macmillan', place: 'London' });
T('hind-en', 'gandhi-hind', 'Indian Home Rule', null, 'en', 1910, 'Mohandas Karamchand Gandhi', { place: 'Phoenix, Natal', d: 'Gandhi\'s own English version of Hind Swaraj.' });
T('botchan-en', 'soseki-botchan', 'Botchan (Master Darling)', null, 'en', 1918, 'Yasotaro Morri', { place: '東京' });

// ============================================================ Aggregations and their parts
A('lyrical-ballads', [WORDSWORTH, COLERIDGE], 'Lyrical Ballads', 'with a Few Other Poems', 'en', 1798, 'poe', { pub: 'J. & A. Arch', place: 'London', d: 'An anonymous joint collection that opens with Coleridge\'s Ancient Mariner and closes with Wordsworth\'s lines above Tintern Abbey; a founding book of English Romanticism.' });
P('lb-mariner', 'lyrical-ballads', 1, COLERIDGE, 'The Rime of the Ancyent Marinere', 'in Seven Parts', 'poe');
P('lb-foster', 'lyrical-ballads', 2, COLERIDGE, 'The Foster-Mother\'s Tale', 'A Dramatic Fragment', 'poe');
P('lb-nightingale', 'lyrical-ballads', 4, COLERIDGE, 'The Nightingale', 'A Conversational Poem, Written in April, 1798', 'poe');
P('lb-goody', 'lyrical-ballads', 6, WORDSWORTH, 'Goody Blake and Harry Gill', 'A True Story', 'poe');
P('lb-simon', 'lyrical-ballads', 8, WORDSWORTH, 'Simon Lee, the Old Huntsman', 'with an Incident in Which He Was Concerned', 'poe');
P('lb-seven', 'lyrical-ballads', 10, WORDSWORTH, 'We Are Seven', null, 'poe');
P('lb-thorn', 'lyrical-ballads', 12, WORDSWORTH, 'The Thorn', null, 'poe');
P('lb-dungeon', 'lyrical-ballads', 14, COLERIDGE, 'The Dungeon', null, 'poe');
P('lb-idiot', 'lyrical-ballads', 16, WORDSWORTH, 'The Idiot Boy', null, 'poe');
P('lb-expostulation', 'lyrical-ballads', 18, WORDSWORTH, 'Expostulation and Reply', null, 'poe');
P('lb-tables', 'lyrical-ballads', 19, WORDSWORTH, 'The Tables Turned', 'An Evening Scene, on the Same Subject', 'poe');
P('lb-tintern', 'lyrical-ballads', 23, WORDSWORTH, 'Lines Written a Few Miles above Tintern Abbey', 'on Revisiting the Banks of the Wye during a Tour, July 13, 1798', 'poe');

A('soirees-medan', [ZOLA, MAUPASSANT, 'Joris-Karl Huysmans', 'Henry Céard', 'Léon Hennique', 'Paul Alexis'], 'Les Soirées de Médan', null, 'fr', 1880, 'lit', { pub: 'G. Charpentier', place: 'Paris', d: 'Six stories of the war of 1870 by Zola and five younger writers who met at his house in Médan; the book that made Maupassant famous.' });
P('medan-moulin', 'soirees-medan', 1, ZOLA, 'L\'Attaque du moulin', null, 'lit');
P('medan-boule', 'soirees-medan', 2, MAUPASSANT, 'Boule de suif', null, 'lit');
P('medan-sac', 'soirees-medan', 3, 'Joris-Karl Huysmans', 'Sac au dos', null, 'lit');
P('medan-saignee', 'soirees-medan', 4, 'Henry Céard', 'La Saignée', null, 'lit');
P('medan-grand7', 'soirees-medan', 5, 'Léon Hennique', 'L\'Affaire du Grand 7', null, 'lit');
P('medan-bataille', 'soirees-medan', 6, 'Paul Alexis', 'Après la bataille', null, 'lit');

A('dial-1840', FULLER, 'The Dial', 'A Magazine for Literature, Philosophy, and Religion. Vol. I, No. 1, July 1840', 'en', 1840, 'phil', { pub: 'Weeks, Jordan and Company', place: 'Boston', d: 'The first issue of the quarterly of the New England Transcendentalists, edited by Margaret Fuller with the help of Emerson and George Ripley.' });
P('dial-editors', 'dial-1840', 1, EMERSON, 'The Editors to the Reader', null, 'phil');
P('dial-critics', 'dial-1840', 2, FULLER, 'A Short Essay on Critics', null, 'phil');
P('dial-persius', 'dial-1840', 3, THOREAU, 'Aulus Persius Flaccus', null, 'phil');
P('dial-sympathy', 'dial-1840', 4, THOREAU, 'Sympathy', null, 'poe');
P('dial-orphic', 'dial-1840', 5, 'Amos Bronson Alcott', 'Orphic Sayings', null, 'phil');

// Descriptions in the language of the library that holds the copy (used instead of the English `d`
// when the first language of the holding library matches). Written for the demo.
export const LOCAL_DESCRIPTIONS = {
  'malatesta-contadini': { it: 'Dialogo tra due contadini, il giovane Beppe e il vecchio Giorgio, sulla proprietà, sul governo e sulla libertà: uno degli opuscoli anarchici più ristampati e tradotti.' },
  'malatesta-anarchia': { it: 'Breve saggio su che cosa significhi anarchia: libertà e solidarietà al posto del governo.' },
  'mazzini-doveri': { it: 'Agli operai italiani: prima i doveri, poi i diritti; l\'associazione come strada verso la libertà e l\'unità.' },
  'beccaria-delitti': { it: 'Il breve trattato anonimo contro la tortura e la pena di morte che l\'Europa dei Lumi lesse e tradusse subito.' },
  'leopardi-canti': { it: 'Le poesie di Leopardi, dalle canzoni patriottiche all\'«Infinito» e ad «A Silvia».' },
  'manzoni-sposi': { it: 'Renzo e Lucia, due filatori di seta separati da un signorotto, dalla carestia e dalla peste del 1630.' },
  'cafiero-compendio': { it: 'Il riassunto popolare del primo libro del Capitale, apprezzato da Marx stesso.' },
  'subjection-it': { it: 'La traduzione di Anna Maria Mozzoni, con la sua introduzione: un manifesto per la libertà e l\'uguaglianza delle donne.' },
  'manifesto-it': { it: 'La traduzione di Pompeo Bettini, con la prefazione di Engels «al lettore italiano».' },
  'kropotkin-conquete': {
    it: 'La rivoluzione del giorno dopo: come una città potrebbe nutrire, alloggiare e vestire tutti, in libertà. Con una prefazione di Élisée Reclus.',
    fr: 'Comment une ville en révolution pourrait nourrir, loger et vêtir tout le monde dès le lendemain. Préface d\'Élisée Reclus.',
  },
  'reclus-evolution': {
    it: 'Per Élisée Reclus evoluzione e rivoluzione sono due fasi dello stesso movimento verso la libertà.',
    fr: 'Pour Élisée Reclus, évolution et révolution sont deux moments d\'un même mouvement vers la liberté.',
  },
  'proudhon-propriete': { fr: 'Le premier mémoire sur la propriété, avec sa réponse restée célèbre, et la première revendication du nom d\'anarchiste.' },
  'laboetie-servitude': { fr: 'Pourquoi tant d\'hommes obéissent-ils à un seul ? Parce qu\'ils y consentent, répond le jeune ami de Montaigne : qu\'ils cessent de servir, et les voilà libres.' },
  'michel-commune': { fr: 'L\'histoire de la Commune de Paris racontée par l\'une de ses figures les plus connues, déportée en Nouvelle-Calédonie après la défaite.' },
  'reclus-ruisseau': { fr: 'La vie d\'un ruisseau, de la source à la mer, racontée aux jeunes lecteurs par le géographe Élisée Reclus.' },
  'zola-germinal': { fr: 'Une grève dans les mines du Nord vue par Étienne Lantier. Aux obsèques de Zola, des mineurs scandaient « Germinal ! ».' },
  'ferrer-escuela': { es: 'El fundador de la Escuela Moderna explica la enseñanza racionalista, mixta y laica; publicado tres años después de su fusilamiento.' },
  'lorenzo-proletariado': { es: 'Memorias del tipógrafo madrileño que conoció a Fanelli en 1868 y ayudó a fundar la sección española de la Internacional.' },
  'hernandez-fierro': { es: 'El lamento de un gaucho enviado al fortín de la frontera, cantado en la lengua de la pampa.' },
  'barrett-dolor': { es: 'Artículos sobre la miseria de los trabajadores paraguayos y de los yerbales, reunidos el año siguiente a la muerte del autor.' },
  'marti-sencillos': { es: 'Poemas breves escritos en las montañas Catskill e impresos en Nueva York.' },
  'muhsam-befreiung': { de: 'Mühsams letztes Buch, erschienen im Jahr seiner Verhaftung durch die Nazis; 1934 wurde er im KZ Oranienburg ermordet.' },
  'landauer-aufruf': { de: 'Sozialismus nicht als künftiger Staat, sondern als etwas, das jetzt beginnt, in kleinen Gemeinschaften.' },
  'marx-manifest': { de: 'Für den Bund der Kommunisten geschrieben und wenige Wochen vor den Revolutionen von 1848 in London gedruckt.' },
  'stirner-einzige': { de: 'Jede Sache – Gott, die Menschheit, die Nation – ist ein „Spuk“, der vom Einzelnen verlangt, sich zu opfern.' },
};
