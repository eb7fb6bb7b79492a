// Test fixtures: small XLSX workbooks written by hand (fflate + the SpreadsheetML parts a reader needs:
// content types, workbook with its sheets in tab order, relationships, worksheets, shared strings, styles).
import { strToU8, zipSync } from 'fflate';

export interface FixtureSheet {
  name: string;
  /** The inner XML of <sheetData>: <row r="1"><c r="A1" t="inlineStr"><is><t>title</t></is></c></row>… */
  rows: string;
  /** XML after <sheetData>, e.g. <mergeCells count="1"><mergeCell ref="C2:C3"/></mergeCells>. */
  after?: string;
  /** The number in xl/worksheets/sheetN.xml (default: its position); the tab order is the array's. */
  file?: number;
}

/**
 * Cell styles (the `s` attribute of a cell): 0 General, 1 a built-in date (numFmtId 14, m/d/yyyy),
 * 2 a custom "yyyy" date format, 3 text ("@", numFmtId 49), 4 a custom "dd/mm/yyyy hh:mm" date and time.
 */
export const STYLE = { general: 0, date: 1, year: 2, text: 3, dateTime: 4 } as const;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy"/><numFmt numFmtId="165" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts>
<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="1"><fill><patternFill patternType="none"/></fill></fills>
<borders count="1"><border/></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="5">
<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
</cellXfs>
</styleSheet>`;

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook; `shared` are the <si> bodies of the shared strings table (e.g. `<t>title</t>`). */
export function xlsxWorkbook(sheets: FixtureSheet[], shared?: string[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const fileNo = (s: FixtureSheet, i: number) => s.file ?? i + 1;
  files['[Content_Types].xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
${sheets.map((s, i) => `<Override PartName="/xl/worksheets/sheet${fileNo(s, i)}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('\n')}
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>
${shared ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}
</Types>`);
  files['_rels/.rels'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  files['xl/workbook.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook ${NS}><sheets>${sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rIdSheet${i + 1}"/>`).join('')}</sheets></workbook>`);
  files['xl/_rels/workbook.xml.rels'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
${sheets.map((s, i) => `<Relationship Id="rIdSheet${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${fileNo(s, i)}.xml"/>`).join('\n')}
<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>
${shared ? `<Relationship Id="rIdShared" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}
</Relationships>`);
  files['xl/styles.xml'] = strToU8(STYLES);
  if (shared) {
    files['xl/sharedStrings.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">${shared.map((si) => `<si>${si}</si>`).join('')}</sst>`);
  }
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${fileNo(s, i)}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet ${NS}><sheetData>${s.rows}</sheetData>${s.after ?? ''}</worksheet>`);
  });
  return zipSync(files);
}

/** The Excel serial number (1900 date system) of a UTC date and time. */
export function excelSerial(y: number, m: number, d: number, hh = 0, mm = 0): number {
  return (Date.UTC(y, m - 1, d, hh, mm) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/**
 * A catalogue of `rows` records (identifier, title, authors, year, publisher, description) in inline
 * strings, each description `descriptionChars` long: the sheet's XML is about rows × (descriptionChars
 * + 330) bytes, and packs small (the rows repeat), like the workbooks of the "workbook bomb" attack.
 */
export function catalogueWorkbook(rows: number, descriptionChars: number): Uint8Array {
  const cell = (ref: string, v: string) => `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
  const description = 'A description of the book and of what it holds. '.repeat(Math.ceil(descriptionChars / 49)).slice(0, descriptionChars);
  const parts = ['<row r="1">' + ['identifier', 'title', 'authors', 'year_edition', 'publisher', 'description'].map((h, i) => cell(`${'ABCDEF'[i]}1`, h)).join('') + '</row>'];
  for (let r = 2; r <= rows + 1; r++) {
    parts.push(`<row r="${r}">${cell(`A${r}`, `bomb-${r}`)}${cell(`B${r}`, `A book of the catalogue, number ${r}`)}${cell(`C${r}`, 'Rossi, Maria; Bianchi, Luigi')}<c r="D${r}"><v>${1900 + (r % 120)}</v></c>${cell(`E${r}`, 'Edizioni di prova')}${cell(`F${r}`, description)}</row>`);
  }
  return xlsxWorkbook([{ name: 'Catalogue', rows: parts.join('') }]);
}

/** The zip with `part`'s unpacked size rewritten to `size` in its local header and central directory: a zip that lies. */
export function declareSize(zip: Uint8Array, part: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i + 46 <= out.length; i++) {
    const sig = view.getUint32(i, true);
    const local = sig === 0x04034b50;
    if (!local && sig !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + (local ? 26 : 28), true);
    const nameAt = i + (local ? 30 : 46);
    if (new TextDecoder().decode(out.subarray(nameAt, nameAt + nameLength)) === part) view.setUint32(i + (local ? 22 : 24), size, true);
  }
  return out;
}
