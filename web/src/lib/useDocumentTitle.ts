import { useEffect } from 'react';
import { useGeneral } from '../api/hooks';

/** document.title = page title + site name (or the site name alone). Inactive views pass active=false. */
export function useDocumentTitle(pageTitle: string | undefined, active = true): void {
  const { data } = useGeneral();
  const site = data?.site_name ?? '';
  useEffect(() => {
    if (!active) return;
    const parts = [pageTitle, site].filter((p): p is string => !!p && p.trim() !== '');
    if (parts.length) document.title = parts.join(' – ');
  }, [pageTitle, site, active]);
}
