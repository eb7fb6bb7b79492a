// Texts written for the demo (Muse sources in demo/texts/, PDFs made by make-pdfs.mjs) and the libraries
// that hold them. The Muse texts live only in libraries whose site_type is amusewiki (1, 2, 11).
export const MUSE_TEXTS = [
  {
    key: 'guide-how-to-use', file: 'texts/how-to-use-the-catalogue.muse', libraries: [11, 1],
    title: 'How to Use the Union Catalogue', subtitle: 'A short guide for visitors, readers and book makers',
    authors: ['Common Shelves Working Group'], lang: 'en', year: 2026,
    d: 'The user guide of this catalogue: searching, the query language, facets, entry pages, full texts and the Book Builder.',
  },
  {
    key: 'guide-joining', file: 'texts/joining-with-your-library.muse', libraries: [11],
    title: 'Bringing Your Library into the Catalogue', subtitle: 'A guide for volunteers',
    authors: ['Common Shelves Working Group'], lang: 'en', year: 2026,
    d: 'Step by step, from the first e-mail to the moment a library goes public, with the columns of a good spreadsheet record.',
  },
  {
    key: 'essay-small-shelves', file: 'texts/small-shelves-long-memories.muse', libraries: [11],
    title: 'Small Shelves, Long Memories', subtitle: 'On independent libraries and archives',
    authors: ['Ilaria Venturini'], lang: 'en', year: 2026,
    d: 'An essay on what small independent libraries keep, why they stay invisible and what a union catalogue can do for them.',
  },
  {
    key: 'essay-cards-commons', file: 'texts/from-cards-to-commons.muse', libraries: [2],
    title: 'From Cards to Commons', subtitle: 'A short history of shared catalogues',
    authors: ['Tomás Arrieta'], lang: 'en', year: 2026,
    d: 'From Gessner\'s universal bibliography and the playing cards of 1791 to union catalogues and machine-readable records.',
  },
  {
    key: 'lettera-biblioteca', file: 'texts/lettera-a-chi-apre-una-biblioteca.muse', libraries: [1],
    title: 'Lettera a chi apre una biblioteca', subtitle: 'Consigli pratici e qualche verso per una biblioteca sociale',
    authors: ['Collettivo della Biblioteca La Lanterna'], lang: 'it', year: 2026,
    d: 'Una lettera del collettivo della Lanterna a chi vuole aprire una biblioteca in uno spazio sociale, con una poesia per l\'inaugurazione.',
  },
  {
    key: 'guide-catalogage', file: 'texts/petit-guide-du-catalogage.muse', libraries: [1],
    title: 'Petit guide du catalogage à la main', subtitle: 'Pour les bibliothèques qui n\'ont ni logiciel ni bibliothécaire',
    authors: ['Atelier des Canuts Libres'], lang: 'fr', year: 2026,
    d: 'Comment rédiger une fiche, inventer une cote et tenir un fichier, en sept règles simples.',
  },
  {
    key: 'notes-paper', file: 'texts/keeping-paper-alive.muse', libraries: [2],
    title: 'Keeping Paper Alive', subtitle: 'Notes on care and repair for volunteer reading rooms',
    authors: ['Salt River Library Collective'], lang: 'en', year: 2026,
    d: 'Practical notes on climate, handling and simple repairs for small collections of books and pamphlets.',
  },
];

export const PDF_TEXTS = [
  {
    key: 'leaflet-visiting', file: 'pdf/visiting-a-member-library.pdf', library: 10,
    title: 'Visiting a Member Library', subtitle: 'A leaflet for readers of the Common Shelves union catalogue',
    authors: ['Kensington Free Reading Room'], lang: 'en', year: 2026,
    d: 'A one-page leaflet on what to expect when visiting a member library, with the reading room rules.',
  },
  {
    key: 'guia-lector', file: 'pdf/guia-del-lector.pdf', library: 14,
    title: 'Guía del lector', subtitle: 'Biblioteca Popular Barracas del Sur',
    authors: ['Biblioteca Popular Barracas del Sur'], lang: 'es', year: 2026,
    d: 'Cómo usar la biblioteca: búsqueda, préstamo, donaciones y horarios.',
  },
];
