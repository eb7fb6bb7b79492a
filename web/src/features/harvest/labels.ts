// The translated names of site types, metadata formats and run states, and the dates and durations of runs.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HarvestRun } from './api';

export function siteTypeLabel(t: TFunction, type: string): string {
  switch (type) {
    case 'amusewiki': return t('Amusewiki site (OAI-PMH)');
    case 'koha-marc21': return t('Koha catalogue, MARC21 (OAI-PMH)');
    case 'koha-unimarc': return t('Koha catalogue, UNIMARC (OAI-PMH)');
    case 'generic': return t('Other OAI-PMH repository');
    case 'calibretree': return t('Calibre library (folder on the server)');
    case 'csv': return t('Spreadsheet uploads (CSV or XLSX)');
    default: return type;
  }
}

export function formatLabel(t: TFunction, format: string): string {
  return format === 'oai_dc' ? t('Dublin Core (oai_dc)') : format === 'marc21' ? t('MARC21 (marc21)') : format;
}

export function csvTypeLabel(t: TFunction, type: string): string {
  return type === 'generic' ? t('Generic columns') : type === 'calibre' ? t('Calibre export') : type;
}

export function runStatusLabel(t: TFunction, run: Pick<HarvestRun, 'status'>): string {
  switch (run.status) {
    case 'queued': return t('Queued');
    case 'running': return t('Running');
    case 'finished': return t('Finished');
    case 'failed': return t('Failed');
    default: return String(run.status);
  }
}

/** A date and time in the interface language (the ISO text when it cannot be read). */
export function formatDateTime(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(lang || 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
  } catch {
    return d.toISOString().slice(0, 16).replace('T', ' ');
  }
}

export function formatDuration(t: TFunction, ms: number): string {
  const total = Math.round(ms / 1000);
  if (total < 60) return t('{{s}} s', { s: total });
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return t('{{m}} min {{s}} s', { m: minutes, s: total % 60 });
  return t('{{h}} h {{m}} min', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

export function useLanguage(): string {
  return useTranslation().i18n.language;
}
