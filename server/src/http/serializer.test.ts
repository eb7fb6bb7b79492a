import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { z } from 'zod';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSerializer } from './serializer.ts';

const answer = z.object({ id: z.number(), title: z.string() });

async function appAnswering(body: unknown, checked: boolean) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(checked));
  app.get('/thing', { schema: { response: { 200: answer } } }, async () => body as z.infer<typeof answer>);
  const res = await app.inject('/thing');
  await app.close();
  return res;
}

describe('answers and their schemas', () => {
  it('writes an answer that fits its schema the same way checked or not', async () => {
    const body = { title: 'Mutual Aid', id: 7 };
    const checked = await appAnswering(body, true);
    const unchecked = await appAnswering(body, false);
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toEqual(body);
    expect(unchecked.json()).toEqual(checked.json());
  });

  it('checked, refuses an answer with a field its schema would drop (a field the unchecked server would send)', async () => {
    const res = await appAnswering({ id: 7, title: 'Mutual Aid', password_hash: 'x' }, true);
    expect(res.statusCode).toBe(500);
    const plain = await appAnswering({ id: 7, title: 'Mutual Aid', password_hash: 'x' }, false);
    expect(plain.json()).toHaveProperty('password_hash');
  });

  it('checked, refuses an answer of the wrong shape', async () => {
    expect((await appAnswering({ id: 'seven', title: 'Mutual Aid' }, true)).statusCode).toBe(500);
  });
});
