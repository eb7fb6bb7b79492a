import { useTranslation } from 'react-i18next';
import { useGeneral } from '../../api/hooks';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

export default function ContactPage() {
  const { t } = useTranslation();
  const { data, isPending } = useGeneral();
  useDocumentTitle(t('Contacts'));
  const email = data?.contact_email?.trim();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold">
        {data?.site_name && <span className="block">{data.site_name}</span>}
        <span className="block">{t('Contacts')}</span>
      </h1>
      {!isPending &&
        (email ? (
          <p className="mt-4">
            {t('Feel free to reach out to us at:')}{' '}
            <a href={`mailto:${email}`} className="link">
              {email}
            </a>
          </p>
        ) : (
          <p className="mt-4">{t('This project has no contact email. Please check the footer instead')}</p>
        ))}
    </div>
  );
}
