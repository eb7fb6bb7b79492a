// Two bibliography styles for the readable citations, written for what a catalogue entry holds (a
// book, a part of an aggregation, or a document: authors, title, container, edition, publisher, year,
// address). APA comes with Citation.js's CSL plugin; these follow the Chicago Manual of Style
// (notes and bibliography, bibliography entry) and the MLA Handbook (works-cited entry) for those fields.

const head = (id: string, title: string, cls: 'note' | 'in-text') =>
  `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="${cls}" version="1.0" demote-non-dropping-particle="never">
  <info><title>${title}</title><id>${id}</id><updated>2026-11-28T00:00:00+00:00</updated></info>`;

/** First author "Family, Given", the others "Given Family"; "and" before the last. */
const authors = (etAlMin: number, etAlUseFirst: number) => `
  <macro name="authors">
    <names variable="author">
      <name and="text" delimiter-precedes-last="always" name-as-sort-order="first" sort-separator=", "
        et-al-min="${etAlMin}" et-al-use-first="${etAlUseFirst}"/>
    </names>
  </macro>`;

/** A book's title in italics; a part's title quoted (its container italic is the caller's). */
const title = `
  <macro name="title">
    <choose>
      <if type="chapter"><text variable="title" quotes="true"/></if>
      <else><text variable="title" font-style="italic"/></else>
    </choose>
  </macro>`;

export const CHICAGO_CSL = `${head('uc-chicago-bibliography', 'Chicago (bibliography)', 'note')}${authors(11, 7)}${title}
  <citation><layout><text macro="title"/></layout></citation>
  <bibliography hanging-indent="true">
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="authors"/>
        <text macro="title"/>
        <choose><if variable="container-title"><group delimiter=" "><text value="In"/><text variable="container-title" font-style="italic"/></group></if></choose>
        <text variable="edition"/>
        <group delimiter=", ">
          <text variable="publisher"/>
          <date variable="issued"><date-part name="year"/></date>
        </group>
        <text variable="URL"/>
      </group>
    </layout>
  </bibliography>
</style>
`;

export const MLA_CSL = `${head('uc-mla-works-cited', 'MLA (works cited)', 'in-text')}${authors(3, 1)}${title}
  <citation><layout><text macro="title"/></layout></citation>
  <bibliography hanging-indent="true">
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="authors"/>
        <text macro="title"/>
        <group delimiter=", ">
          <text variable="container-title" font-style="italic"/>
          <text variable="edition"/>
          <text variable="publisher"/>
          <date variable="issued"><date-part name="year"/></date>
          <text variable="URL"/>
        </group>
      </group>
    </layout>
  </bibliography>
</style>
`;
