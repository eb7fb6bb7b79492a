// Test helper: logs a user in through the API and returns the cookie header of that browser.
import { CSRF_HEADERS, type TestApp } from '../test/fixture.ts';

export const TEST_PASSWORD = 'a long test password';

export async function loginCookie(t: TestApp, username: string, password = TEST_PASSWORD): Promise<string> {
  const res = await t.app.inject({
    method: 'POST', url: '/collector/api/auth/login', headers: { ...CSRF_HEADERS, 'content-type': 'application/json' },
    payload: { username, password },
  });
  const sid = res.cookies.find((c) => c.name === 'sessionid')?.value;
  if (!sid) throw new Error(`login failed for ${username}: ${res.body}`);
  return `csrftoken=test-csrf-token; sessionid=${sid}`;
}
