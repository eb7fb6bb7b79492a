// Language values as sources write them (ISO 639-1/639-2 codes, MARC codes, locale tags, language
// names in English or in the language itself) turned into the codes the catalogue stores: ISO 639-1
// where the language has one, else its ISO 639-2/3 code. Anything not recognised is null: free text is
// never guessed from its first letters.

/** ISO 639-1 code → its ISO 639-2 codes (terminologic first, then bibliographic when different). */
const ISO639: Record<string, string[]> = {
  aa: ['aar'], ab: ['abk'], ae: ['ave'], af: ['afr'], ak: ['aka'], am: ['amh'], an: ['arg'], ar: ['ara'], as: ['asm'],
  av: ['ava'], ay: ['aym'], az: ['aze'], ba: ['bak'], be: ['bel'], bg: ['bul'], bi: ['bis'], bm: ['bam'], bn: ['ben'],
  bo: ['bod', 'tib'], br: ['bre'], bs: ['bos'], ca: ['cat'], ce: ['che'], ch: ['cha'], co: ['cos'], cr: ['cre'],
  cs: ['ces', 'cze'], cu: ['chu'], cv: ['chv'], cy: ['cym', 'wel'], da: ['dan'], de: ['deu', 'ger'], dv: ['div'],
  dz: ['dzo'], ee: ['ewe'], el: ['ell', 'gre'], en: ['eng'], eo: ['epo'], es: ['spa'], et: ['est'], eu: ['eus', 'baq'],
  fa: ['fas', 'per'], ff: ['ful'], fi: ['fin'], fj: ['fij'], fo: ['fao'], fr: ['fra', 'fre'], fy: ['fry'], ga: ['gle'],
  gd: ['gla'], gl: ['glg'], gn: ['grn'], gu: ['guj'], gv: ['glv'], ha: ['hau'], he: ['heb'], hi: ['hin'], ho: ['hmo'],
  hr: ['hrv'], ht: ['hat'], hu: ['hun'], hy: ['hye', 'arm'], hz: ['her'], ia: ['ina'], id: ['ind'], ie: ['ile'],
  ig: ['ibo'], ii: ['iii'], ik: ['ipk'], io: ['ido'], is: ['isl', 'ice'], it: ['ita'], iu: ['iku'], ja: ['jpn'],
  jv: ['jav'], ka: ['kat', 'geo'], kg: ['kon'], ki: ['kik'], kj: ['kua'], kk: ['kaz'], kl: ['kal'], km: ['khm'],
  kn: ['kan'], ko: ['kor'], kr: ['kau'], ks: ['kas'], ku: ['kur'], kv: ['kom'], kw: ['cor'], ky: ['kir'], la: ['lat'],
  lb: ['ltz'], lg: ['lug'], li: ['lim'], ln: ['lin'], lo: ['lao'], lt: ['lit'], lu: ['lub'], lv: ['lav'], mg: ['mlg'],
  mh: ['mah'], mi: ['mri', 'mao'], mk: ['mkd', 'mac'], ml: ['mal'], mn: ['mon'], mr: ['mar'], ms: ['msa', 'may'],
  mt: ['mlt'], my: ['mya', 'bur'], na: ['nau'], nb: ['nob'], nd: ['nde'], ne: ['nep'], ng: ['ndo'], nl: ['nld', 'dut'],
  nn: ['nno'], no: ['nor'], nr: ['nbl'], nv: ['nav'], ny: ['nya'], oc: ['oci'], oj: ['oji'], om: ['orm'], or: ['ori'],
  os: ['oss'], pa: ['pan'], pi: ['pli'], pl: ['pol'], ps: ['pus'], pt: ['por'], qu: ['que'], rm: ['roh'], rn: ['run'],
  ro: ['ron', 'rum'], ru: ['rus'], rw: ['kin'], sa: ['san'], sc: ['srd'], sd: ['snd'], se: ['sme'], sg: ['sag'],
  si: ['sin'], sk: ['slk', 'slo'], sl: ['slv'], sm: ['smo'], sn: ['sna'], so: ['som'], sq: ['sqi', 'alb'], sr: ['srp'],
  ss: ['ssw'], st: ['sot'], su: ['sun'], sv: ['swe'], sw: ['swa'], ta: ['tam'], te: ['tel'], tg: ['tgk'], th: ['tha'],
  ti: ['tir'], tk: ['tuk'], tl: ['tgl'], tn: ['tsn'], to: ['ton'], tr: ['tur'], ts: ['tso'], tt: ['tat'], tw: ['twi'],
  ty: ['tah'], ug: ['uig'], uk: ['ukr'], ur: ['urd'], uz: ['uzb'], ve: ['ven'], vi: ['vie'], vo: ['vol'], wa: ['wln'],
  wo: ['wol'], xh: ['xho'], yi: ['yid'], yo: ['yor'], za: ['zha'], zh: ['zho', 'chi'], zu: ['zul'],
};

/** Withdrawn codes still found in old records: MARC's obsolete language codes and ISO 639-1's renamed ones. */
const OBSOLETE: Record<string, string> = {
  esp: 'eo', fri: 'fy', gae: 'gd', gag: 'gl', gua: 'gn', int: 'ia', iri: 'ga', cam: 'km', far: 'fo', lan: 'oc',
  mla: 'mg', mol: 'ro', sao: 'sm', scc: 'sr', scr: 'hr', sho: 'sn', snh: 'si', sso: 'st', swz: 'ss', tag: 'tl',
  taj: 'tg', tar: 'tt', iw: 'he', in: 'id', ji: 'yi', jw: 'jv', mo: 'ro',
};

/** Codes that name no language: multiple, undetermined, no linguistic content, uncoded, local use (qaa–qtz). */
const NOT_A_LANGUAGE = /^(mul|und|zxx|mis|q[a-t][a-z])$/;

const TO_ISO1 = new Map<string, string>();
for (const [two, threes] of Object.entries(ISO639)) {
  TO_ISO1.set(two, two);
  for (const t of threes) TO_ISO1.set(t, two);
}
for (const [old, two] of Object.entries(OBSOLETE)) TO_ISO1.set(old, two);

/** Case, diacritics and spacing do not matter when a name is looked up ("Français" = "francais"). */
const nameKey = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** Names in these languages are understood besides English and the language's own name. */
const NAME_LOCALES = ['en', 'it', 'fr', 'de', 'es', 'pt'];

let names: Map<string, string> | null = null;

/** Language name → code, built once from the platform's language names (CLDR through Intl). */
function nameTable(): Map<string, string> {
  if (names) return names;
  const table = new Map<string, string>();
  const add = (name: string | undefined, code: string) => {
    if (!name) return;
    const key = nameKey(name);
    // First writer wins: English names come first, so an English name never loses to a foreign homonym.
    if (key && key !== code && !table.has(key)) table.set(key, code);
  };
  const codes = Object.keys(ISO639);
  for (const locale of NAME_LOCALES) {
    const dn = displayNames(locale);
    if (dn) for (const code of codes) add(dn.of(code), code);
  }
  for (const code of codes) add(displayNames(code)?.of(code), code); // autonyms: "Deutsch", "Русский"
  // Older English names still used in catalogues.
  for (const [name, code] of [['castilian', 'es'], ['flemish', 'nl'], ['moldavian', 'ro'], ['farsi', 'fa'], ['panjabi', 'pa'],
    ['pushto', 'ps'], ['sinhalese', 'si'], ['gaelic', 'gd'], ['scottish gaelic', 'gd'], ['irish gaelic', 'ga']] as const) {
    if (!table.has(name)) table.set(name, code);
  }
  names = table;
  return table;
}

function displayNames(locale: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
  } catch {
    return null;
  }
}

let english: Intl.DisplayNames | null | undefined;

/** A 3-letter ISO 639-2/3 code without a 639-1 equivalent (e.g. "grc"), when the platform knows it. */
function knownIso3(code: string): boolean {
  if (NOT_A_LANGUAGE.test(code)) return false;
  if (english === undefined) english = displayNames('en');
  try {
    return english?.of(code) !== undefined;
  } catch {
    return false;
  }
}

export interface LanguageCodeOptions {
  /** Also accept language names ("English", "Italiano"); default true. */
  names?: boolean;
}

/**
 * One language value → its stored code: "eng", "EN", "en-GB", "fre", "English", "Italiano", "Русский"
 * → "en"/"fr"/"it"/"ru"; "grc" stays "grc". Unknown values, free text and "und"/"mul" give null.
 */
export function languageCode(value: string, opts: LanguageCodeOptions = {}): string | null {
  const v = value.trim().replace(/[.;,:]+$/, '').trim();
  if (!v) return null;
  // A locale tag ("en-US", "pt_BR"): its language subtag decides.
  const tag = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{2,8})*$/.exec(v);
  if (tag) {
    const code = tag[1].toLowerCase();
    const mapped = TO_ISO1.get(code);
    if (mapped) return mapped;
    if (code.length === 3 && knownIso3(code)) return code;
    if (v.length <= 3) return null;
  }
  if (opts.names === false) return null;
  return nameTable().get(nameKey(v)) ?? null;
}

/**
 * A field that may list several languages ("English; French", "eng, fre", "Italiano e inglese"): every
 * part must be a code or a known name, else nothing is taken ("Text in English" or "Spanish, with English
 * summary" are prose, not a list). De-duplicated, in order.
 */
export function languageCodes(value: string, opts: LanguageCodeOptions = {}): string[] {
  const whole = languageCode(value, opts);
  if (whole) return [whole];
  const out: string[] = [];
  for (const part of value.split(/\s*[,;/&+]\s*|\s+(?:and|e|et|und|y|i)\s+/i)) {
    if (!part.trim()) continue;
    const code = languageCode(part, opts);
    if (!code) return [];
    if (!out.includes(code)) out.push(code);
  }
  return out;
}
