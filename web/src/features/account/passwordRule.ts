import { useTranslation } from 'react-i18next';
import { useGeneral } from '../../api/hooks';

/** The server's password rule (PASSWORD_MIN_LENGTH), shown beside every new-password field before anything is sent. */
export function usePasswordRule(): { minLength: number; text: string; tooShort: (password: string) => boolean } {
  const { t } = useTranslation();
  const minLength = useGeneral().data?.password_min_length ?? 0;
  return {
    minLength,
    text: minLength ? t('At least {{count}} characters.', { count: minLength }) : '',
    tooShort: (password) => password !== '' && [...password].length < minLength,
  };
}
