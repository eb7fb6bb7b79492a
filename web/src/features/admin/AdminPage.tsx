import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError, request } from '../../api/client';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { adminApi, adminKeys } from './api';
import { ErrorAlert } from './ui';
import { LibrariesSection } from './LibrariesSection';
import { UsersSection } from './UsersSection';
import { PagesSection } from './PagesSection';
import { SettingsSection } from './SettingsSection';
import { OutboxSection } from './OutboxSection';

export const SECTIONS = ['libraries', 'users', 'pages', 'settings', 'outbox'] as const;
type Section = (typeof SECTIONS)[number];

/** /admin: the superusers' area. The route is there for everyone; the server decides who may use it. */
export default function AdminPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('section');
  const section: Section = (SECTIONS as readonly string[]).includes(raw ?? '') ? (raw as Section) : 'libraries';
  const labels: Record<Section, string> = {
    libraries: t('Libraries'), users: t('Users'), pages: t('Pages'), settings: t('General settings'), outbox: t('Outbox'),
  };
  useDocumentTitle(t('Admin'));
  // One cheap call tells whether the viewer may use the area at all.
  const gate = useQuery({ queryKey: adminKeys.settings, queryFn: adminApi.settings });
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: () => request<{ logged_in: string | null }>('/auth/user'), enabled: gate.isSuccess });

  let body;
  if (gate.isPending) {
    body = <p role="status">{t('Loading...')}</p>;
  } else if (isApiError(gate.error, 401) || isApiError(gate.error, 403)) {
    body = (
      <p role="alert" className="rounded border border-amber-700 bg-amber-50 px-3 py-2 text-amber-950">
        {isApiError(gate.error, 401)
          ? t('Please log in as a superuser to use the admin area.')
          : t('You are not allowed to use the admin area: it is for superusers only.')}
      </p>
    );
  } else if (gate.error) {
    body = <ErrorAlert error={gate.error} />;
  } else {
    body = (
      <>
        <nav aria-label={t('Admin sections')} className="mb-6 border-b border-stone-300">
          <ul className="flex flex-wrap gap-1">
            {SECTIONS.map((s) => (
              <li key={s}>
                <Link
                  to={`?section=${s}`}
                  aria-current={s === section ? 'page' : undefined}
                  className={`inline-block rounded-t px-3 py-2 ${s === section ? 'border border-b-0 border-stone-300 bg-white font-semibold' : 'link'}`}
                >
                  {labels[s]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="admin-section-title">
          <h2 id="admin-section-title" className="mb-4 text-2xl font-semibold">
            {labels[section]}
          </h2>
          {section === 'libraries' && <LibrariesSection />}
          {section === 'users' && <UsersSection selfUsername={me.data?.logged_in ?? undefined} />}
          {section === 'pages' && <PagesSection />}
          {section === 'settings' && <SettingsSection />}
          {section === 'outbox' && <OutboxSection />}
        </section>
      </>
    );
  }
  return (
    <div className="mx-auto max-w-screen-2xl px-4 py-6">
      <h1 className="mb-4 text-3xl font-semibold">{t('Admin')}</h1>
      {body}
    </div>
  );
}
