// How answers are written. Every route's answer has a zod schema (the OpenAPI document and the web
// client's types come from them). Checking each answer against it cost about a fifth of a search's CPU,
// so production writes the answer as it is, and the checks run where a wrong shape is caught before it
// ships: the tests (unit, contract, e2e) and any server started with CHECK_RESPONSES=1.
import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';

type Compiler = typeof serializerCompiler;

/**
 * Checked: the schema must accept the answer as it is. A field the schema lacks (which the check would
 * silently drop) or a value it would change fails too, so unchecked output is exactly checked output.
 */
export function answerSerializer(checked: boolean): Compiler {
  if (!checked) return () => (data: unknown) => JSON.stringify(data);
  return (route) => {
    const strict = serializerCompiler(route);
    return (data: unknown) => {
      const out = strict(data);
      const plain = JSON.stringify(data);
      if (out !== plain && !isDeepStrictEqual(JSON.parse(out), JSON.parse(plain))) {
        throw new Error(`the answer of ${route.method} ${route.url} has fields or values its schema does not keep`);
      }
      return out;
    };
  };
}
