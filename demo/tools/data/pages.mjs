// Site settings and the static pages of the demo catalogue (HTML written for the demo): the English pages
// (ids 1-4) and, after them, shorter versions in each other interface language (de, el, fr, hr, it).
export const SETTINGS = {
  site_name: 'Common Shelves',
  site_logo: '',
  description: 'A union catalogue of independent libraries, archives, infoshops and social-centre reading rooms: search their holdings together, find them on the map, read the texts they share and print your own books.',
  contact_email: 'hello@commonshelves.example.org',
};

const MAIL = '<a href="mailto:hello@commonshelves.example.org">hello@commonshelves.example.org</a>';
const QUERIES = '<li><code>"mutual aid"</code>, <code>revolu*</code>, <code>bread OR roses</code>, <code>anarchy NOT state</code></li>\n<li><code>title:capital</code>, <code>author:reclus</code>, <code>library:1</code>, <code>language:fr</code>, <code>date:1892</code></li>\n<li><code>kropotkine</code> → <code>kropotkin</code>; <code>Кропоткин</code> = <code>kropotkin</code>; <code>Καστοριάδης</code> = <code>kastoriadis</code></li>';

export const PAGES = [
  {
    id: 1,
    title: 'About this catalogue',
    summary: 'What Common Shelves is, who runs it and how the records get here.',
    content: [
      '<p><strong>Common Shelves</strong> gathers the catalogues of small independent libraries and archives into one search. Each member keeps its own catalogue and its own rules; we collect copies of their records, group the records that describe the same work, and show them side by side.</p>',
      '<p>An <em>entry</em> is one work in one language. Under it you find every member library that holds a copy, with its edition, shelf mark and notes. Translations of the same work are separate entries, linked to each other.</p>',
      '<p>The catalogue is run by volunteers from the member libraries. It has no advertising and no tracking, and its software is free.</p>',
      '<p>Questions and corrections: <a href="mailto:hello@commonshelves.example.org">hello@commonshelves.example.org</a>.</p>',
    ].join('\n'),
    language: 'en',
    location: 'footer',
    sorting: 0,
    published: true,
  },
  {
    id: 2,
    title: 'Privacy',
    summary: 'What we store about visitors (very little) and why.',
    content: [
      '<p>You can search and read this catalogue without an account. We do not use cookies to follow you and we do not share anything with advertisers or analytics companies.</p>',
      '<ul>',
      '<li>Your interface language and your Book Builder list are kept in your own browser (local storage), not on our server.</li>',
      '<li>Our web server keeps ordinary access logs for fourteen days, to fight abuse, and then deletes them.</li>',
      '<li>When you send an error report, we keep your message and forward it to the library concerned. Leave your e-mail address only if you want an answer.</li>',
      '<li>Librarians who have an account are known to us by name and e-mail address, which we use only to run the catalogue.</li>',
      '</ul>',
      '<p>The member libraries never send us anything about their readers or their loans.</p>',
    ].join('\n'),
    language: 'en',
    location: 'footer',
    sorting: 1,
    published: true,
  },
  {
    id: 3,
    title: 'Join with your library',
    summary: 'How a library, archive or infoshop becomes a member.',
    content: [
      '<p>Any independent library, archive, infoshop or community reading room can join, whatever its size. Joining is free.</p>',
      '<ol>',
      '<li>Write to <a href="mailto:hello@commonshelves.example.org">hello@commonshelves.example.org</a> with the name of your library, your city and a rough idea of your holdings.</li>',
      '<li>Fill in the short description of your library that appears on the map.</li>',
      '<li>Send a sample of twenty records from your catalogue, in any format: a spreadsheet, an export from Koha, an Amusewiki site, a Calibre library.</li>',
      '<li>Check your records in a test copy of the catalogue, and tell us when they can go public.</li>',
      '</ol>',
      '<p>The full guide for volunteers, <em>Bringing Your Library into the Catalogue</em>, can be read and printed from the catalogue itself.</p>',
    ].join('\n'),
    language: 'en',
    location: 'footer',
    sorting: 2,
    published: true,
  },
  {
    id: 4,
    title: 'Search tips',
    summary: 'The query language in five lines.',
    content: [
      '<p>Words are combined with AND; accents and capital letters are ignored.</p>',
      '<ul>',
      '<li><code>bread OR roses</code>, <code>anarchy NOT state</code>, <code>+bread -butter</code>, and parentheses to group.</li>',
      '<li><code>"mutual aid"</code> for a phrase, <code>revolu*</code> for every word that starts with <em>revolu</em>.</li>',
      '<li><code>title:capital</code> and <code>author:reclus</code> search one field only (no space after the colon).</li>',
      '<li><code>library:1</code>, <code>creator:ID</code>, <code>language:fr</code> and <code>date:1892</code> filter the results.</li>',
      '<li><code>Кропоткин</code> finds <em>Kropotkin</em> and <code>tolstoy</code> finds <em>Толстой</em>; a misspelling such as <code>kropotkine</code> gets a “Did you mean …?”; tick <em>Include translations and originals</em> to see every translation of a work.</li>',
      '</ul>',
      '<p>The complete user guide is in the catalogue: search for <a href="/search?query=title%3A%22How+to+Use+the+Union+Catalogue%22">How to Use the Union Catalogue</a>.</p>',
    ].join('\n'),
    language: 'en',
    location: 'user_menu',
    sorting: 0,
    published: true,
  },
  ...translatedPages(),
];

/** The four pages in de, el, fr, hr and it: about, privacy, joining (footer) and search tips (user menu). */
function translatedPages() {
  const T = {
    de: [
      ['Über diesen Katalog', 'Was Common Shelves ist, wer den Katalog betreibt und woher die Daten kommen.',
        ['<p><strong>Common Shelves</strong> vereint die Kataloge kleiner unabhängiger Bibliotheken und Archive in einer einzigen Suche. Jedes Mitglied führt seinen eigenen Katalog weiter; wir sammeln Kopien der Datensätze und fassen diejenigen zusammen, die dasselbe Werk beschreiben.</p>',
          '<p>Der Katalog wird von Freiwilligen aus den Mitgliedsbibliotheken betrieben, ohne Werbung und ohne Tracking. Fragen und Korrekturen: ' + MAIL + '.</p>']],
      ['Datenschutz', 'Was wir über Besucherinnen und Besucher speichern (sehr wenig) und warum.',
        ['<p>Sie können den Katalog ohne Konto durchsuchen und lesen. Wir setzen keine Cookies, um Sie zu verfolgen.</p>',
          '<ul>\n<li>Ihre Sprache und Ihre Liste im Book Builder bleiben in Ihrem Browser.</li>\n<li>Zugriffsprotokolle werden nach vierzehn Tagen gelöscht.</li>\n<li>Fehlermeldungen bewahren wir auf und leiten sie an die betroffene Bibliothek weiter.</li>\n</ul>']],
      ['Mit Ihrer Bibliothek mitmachen', 'Wie eine Bibliothek, ein Archiv oder ein Infoladen Mitglied wird.',
        ['<p>Jede unabhängige Bibliothek, jedes Archiv und jeder Infoladen kann mitmachen, unabhängig von der Größe. Die Teilnahme ist kostenlos.</p>',
          '<ol>\n<li>Schreiben Sie an ' + MAIL + '.</li>\n<li>Schicken Sie uns eine kurze Beschreibung Ihrer Bibliothek für die Karte.</li>\n<li>Schicken Sie zwanzig Beispieldatensätze, in einem beliebigen Format.</li>\n</ol>']],
      ['Suchtipps', 'Die Suchsprache in fünf Zeilen.',
        ['<p>Wörter werden mit UND verknüpft; Akzente und Großschreibung spielen keine Rolle.</p>', '<ul>\n' + QUERIES + '\n</ul>']],
    ],
    el: [
      ['Σχετικά με τον κατάλογο', 'Τι είναι το Common Shelves, ποιος το φροντίζει και από πού έρχονται οι εγγραφές.',
        ['<p>Το <strong>Common Shelves</strong> ενώνει τους καταλόγους μικρών ανεξάρτητων βιβλιοθηκών και αρχείων σε μία αναζήτηση. Κάθε μέλος κρατά τον δικό του κατάλογο· εμείς συλλέγουμε αντίγραφα των εγγραφών και ομαδοποιούμε όσες περιγράφουν το ίδιο έργο.</p>',
          '<p>Τον κατάλογο τον φροντίζουν εθελοντές από τις βιβλιοθήκες-μέλη, χωρίς διαφημίσεις και χωρίς παρακολούθηση. Ερωτήσεις και διορθώσεις: ' + MAIL + '.</p>']],
      ['Απόρρητο', 'Τι κρατάμε για τους επισκέπτες (πολύ λίγα) και γιατί.',
        ['<p>Μπορείτε να ψάχνετε και να διαβάζετε χωρίς λογαριασμό. Δεν χρησιμοποιούμε cookies για να σας παρακολουθούμε.</p>',
          '<ul>\n<li>Η γλώσσα σας και η λίστα σας στο Book Builder μένουν στον περιηγητή σας.</li>\n<li>Τα αρχεία πρόσβασης διαγράφονται μετά από δεκατέσσερις ημέρες.</li>\n<li>Τις αναφορές σφαλμάτων τις κρατάμε και τις προωθούμε στη βιβλιοθήκη που αφορούν.</li>\n</ul>']],
      ['Συμμετοχή της βιβλιοθήκης σας', 'Πώς μια βιβλιοθήκη, ένα αρχείο ή ένα στέκι γίνεται μέλος.',
        ['<p>Κάθε ανεξάρτητη βιβλιοθήκη, αρχείο ή στέκι μπορεί να συμμετέχει, όποιο κι αν είναι το μέγεθός του. Η συμμετοχή είναι δωρεάν.</p>',
          '<ol>\n<li>Γράψτε στο ' + MAIL + '.</li>\n<li>Στείλτε μια σύντομη περιγραφή της βιβλιοθήκης σας για τον χάρτη.</li>\n<li>Στείλτε είκοσι δείγματα εγγραφών, σε οποιαδήποτε μορφή.</li>\n</ol>']],
      ['Συμβουλές αναζήτησης', 'Η γλώσσα αναζήτησης σε πέντε γραμμές.',
        ['<p>Οι λέξεις συνδυάζονται με AND· οι τόνοι και τα κεφαλαία αγνοούνται.</p>', '<ul>\n' + QUERIES + '\n</ul>']],
    ],
    fr: [
      ['À propos du catalogue', 'Ce qu’est Common Shelves, qui le fait vivre et d’où viennent les notices.',
        ['<p><strong>Common Shelves</strong> réunit les catalogues de petites bibliothèques et archives indépendantes en une seule recherche. Chaque membre garde son propre catalogue ; nous en recueillons des copies et regroupons les notices qui décrivent la même œuvre.</p>',
          '<p>Le catalogue est animé par des bénévoles des bibliothèques membres, sans publicité ni pistage. Questions et corrections : ' + MAIL + '.</p>']],
      ['Confidentialité', 'Ce que nous gardons sur les visiteurs (très peu) et pourquoi.',
        ['<p>Vous pouvez chercher et lire sans compte. Nous n’utilisons pas de cookies pour vous suivre.</p>',
          '<ul>\n<li>Votre langue et votre liste du Book Builder restent dans votre navigateur.</li>\n<li>Les journaux d’accès sont effacés au bout de quatorze jours.</li>\n<li>Les signalements d’erreur sont conservés et transmis à la bibliothèque concernée.</li>\n</ul>']],
      ['Rejoindre avec votre bibliothèque', 'Comment une bibliothèque, un centre d’archives ou une infokiosque devient membre.',
        ['<p>Toute bibliothèque, tout centre d’archives ou infokiosque indépendant peut nous rejoindre, quelle que soit sa taille. L’adhésion est gratuite.</p>',
          '<ol>\n<li>Écrivez à ' + MAIL + '.</li>\n<li>Envoyez une courte description de votre bibliothèque pour la carte.</li>\n<li>Envoyez vingt notices d’exemple, dans n’importe quel format.</li>\n</ol>']],
      ['Astuces de recherche', 'Le langage de recherche en cinq lignes.',
        ['<p>Les mots sont combinés par ET ; les accents et les majuscules sont ignorés.</p>', '<ul>\n' + QUERIES + '\n</ul>']],
    ],
    hr: [
      ['O ovom katalogu', 'Što je Common Shelves, tko ga vodi i odakle dolaze zapisi.',
        ['<p><strong>Common Shelves</strong> okuplja kataloge malih nezavisnih knjižnica i arhiva u jednu pretragu. Svaka članica vodi svoj katalog; mi prikupljamo kopije zapisa i grupiramo one koji opisuju isto djelo.</p>',
          '<p>Katalog vode volonteri iz knjižnica članica, bez oglasa i bez praćenja. Pitanja i ispravke: ' + MAIL + '.</p>']],
      ['Privatnost', 'Što spremamo o posjetiteljima (vrlo malo) i zašto.',
        ['<p>Katalog možete pretraživati i čitati bez korisničkog računa. Ne koristimo kolačiće da bismo vas pratili.</p>',
          '<ul>\n<li>Vaš jezik i vaš popis u Book Builderu ostaju u vašem pregledniku.</li>\n<li>Zapisi o pristupu brišu se nakon četrnaest dana.</li>\n<li>Prijave pogrešaka čuvamo i prosljeđujemo knjižnici na koju se odnose.</li>\n</ul>']],
      ['Pridružite se sa svojom knjižnicom', 'Kako knjižnica, arhiv ili infošop postaje članica.',
        ['<p>Svaka nezavisna knjižnica, arhiv ili infošop može se pridružiti, bez obzira na veličinu. Članstvo je besplatno.</p>',
          '<ol>\n<li>Pišite na ' + MAIL + '.</li>\n<li>Pošaljite kratak opis svoje knjižnice za kartu.</li>\n<li>Pošaljite dvadeset primjera zapisa, u bilo kojem formatu.</li>\n</ol>']],
      ['Savjeti za pretraživanje', 'Jezik pretraživanja u pet redaka.',
        ['<p>Riječi se povezuju s AND; dijakritički znakovi i velika slova se zanemaruju.</p>', '<ul>\n' + QUERIES + '\n</ul>']],
    ],
    it: [
      ['Informazioni sul catalogo', 'Che cos’è Common Shelves, chi lo gestisce e da dove arrivano le schede.',
        ['<p><strong>Common Shelves</strong> riunisce i cataloghi di piccole biblioteche e archivi indipendenti in un’unica ricerca. Ogni aderente tiene il proprio catalogo; noi ne raccogliamo copie e raggruppiamo le schede che descrivono la stessa opera.</p>',
          '<p>Il catalogo è curato da volontari delle biblioteche aderenti, senza pubblicità e senza tracciamento. Domande e correzioni: ' + MAIL + '.</p>']],
      ['Privacy', 'Che cosa conserviamo sui visitatori (pochissimo) e perché.',
        ['<p>Potete cercare e leggere senza un account. Non usiamo cookie per seguirvi.</p>',
          '<ul>\n<li>La lingua scelta e la lista del Book Builder restano nel vostro browser.</li>\n<li>I log di accesso vengono cancellati dopo quattordici giorni.</li>\n<li>Le segnalazioni di errore vengono conservate e inoltrate alla biblioteca interessata.</li>\n</ul>']],
      ['Aderire con la vostra biblioteca', 'Come una biblioteca, un archivio o un infoshop diventa aderente.',
        ['<p>Qualsiasi biblioteca, archivio o infoshop indipendente può aderire, di qualunque dimensione. L’adesione è gratuita.</p>',
          '<ol>\n<li>Scrivete a ' + MAIL + '.</li>\n<li>Inviate una breve descrizione della vostra biblioteca per la mappa.</li>\n<li>Inviate venti schede di esempio, in qualsiasi formato.</li>\n</ol>']],
      ['Consigli di ricerca', 'Il linguaggio di ricerca in cinque righe.',
        ['<p>Le parole sono combinate con AND; accenti e maiuscole non contano.</p>', '<ul>\n' + QUERIES + '\n</ul>']],
    ],
  };
  const out = [];
  let id = 5;
  for (const [language, pages] of Object.entries(T)) {
    pages.forEach(([title, summary, content], i) => {
      out.push({ id: id++, title, summary, content: content.join('\n'), language, location: i === 3 ? 'user_menu' : 'footer', sorting: i === 3 ? 0 : i, published: true });
    });
  }
  return out;
}
