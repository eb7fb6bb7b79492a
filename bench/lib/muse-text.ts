// Generated Muse texts for the benchmarks (own words, deterministic): chapters and sections, paragraphs
// with inline markup, footnotes, lists, quotes, verse and tables, so the parser and typesetter meet
// every common construct.
const WORDS = (
  'river stone window lantern harvest common library archive letter morning council village ' +
  'paper printing commune assembly freedom bread garden workshop railway winter summer street ' +
  'pamphlet meeting neighbour market harbour school bicycle kitchen evening promise question ' +
  'reading shelf catalogue binding'
).split(' ');

export interface GeneratedMuse { text: string; words: number }

/** A text of about `words` words; the same seed always gives the same text. */
export function generateMuse(opts: { title: string; words: number; seed: number; parts?: boolean }): GeneratedMuse {
  let seed = opts.seed;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const sentence = (min: number, max: number) => {
    const n = min + rnd(max - min);
    const ws: string[] = [];
    for (let i = 0; i < n; i++) {
      let w = WORDS[rnd(WORDS.length)];
      const r = rnd(40);
      if (r === 0) w = `*${w}*`;
      else if (r === 1) w = `**${w}**`;
      else if (r === 2) w = `=${w}=`;
      ws.push(w);
    }
    ws[0] = ws[0][0].toUpperCase() + ws[0].slice(1);
    return ws.join(' ') + '.';
  };
  const body: string[] = [`#title ${opts.title}`, '#author Bench Writer', '#lang en', '#source Generated for the benchmarks', ''];
  const notes: string[] = [];
  let words = 0;
  let fn = 0;
  for (let chapter = 1; words < opts.words; chapter++) {
    if (opts.parts && chapter % 10 === 1) body.push(`* Part ${Math.ceil(chapter / 10)}`, '');
    body.push(`** Chapter ${chapter} on the ${WORDS[rnd(WORDS.length)]}`, '');
    for (let s = 0; s < 4 && words < opts.words; s++) {
      body.push(`*** Section ${chapter}.${s + 1}`, '');
      for (let p = 0; p < 8; p++) {
        const parts: string[] = [];
        for (let k = 0; k < 6; k++) parts.push(sentence(8, 20));
        let para = parts.join(' ');
        if (rnd(3) === 0) {
          fn++;
          para += ` [${fn}]`;
          notes.push(`[${fn}] ${sentence(6, 25)} [[https://example.org/n${fn}][source]]`, '');
          words += 20;
        }
        words += para.split(' ').length;
        body.push(para, '');
      }
      switch (rnd(5)) {
        case 0: body.push(' - ' + sentence(5, 12), ' - ' + sentence(5, 12), '   1. ' + sentence(4, 8), ''); break;
        case 1: body.push('<verse>', sentence(4, 8), '  ' + sentence(4, 8), '', sentence(4, 8), '</verse>', ''); break;
        case 2: body.push('<quote>', sentence(15, 30), '</quote>', ''); break;
        case 3: body.push('  ' + sentence(20, 40), ''); break;
        default: body.push(' Year || Copies || Place', ` 1920 | ${rnd(900)} | ${WORDS[rnd(WORDS.length)]}`, ' 1921 | 2 | 3', ' |+ A table +|', '');
      }
    }
    // The notes of a chapter follow it, as in amusewiki texts.
    body.push(...notes.splice(0));
  }
  return { text: body.join('\n') + '\n', words };
}
