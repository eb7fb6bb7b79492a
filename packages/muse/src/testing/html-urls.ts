// Every href/src of an HTML fragment as a browser reads it (parse5 decodes the character references):
// what the script-link tests check, in the package, through the server and against a running server.
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];

export function urlsOf(html: string): string[] {
  const out: string[] = [];
  const walk = (n: Node) => {
    if ('attrs' in n) for (const a of n.attrs) if (a.name === 'href' || a.name === 'src') out.push(a.value);
    if ('childNodes' in n) for (const c of n.childNodes) walk(c);
  };
  walk(parseFragment(html) as unknown as Node);
  return out;
}
