// What a format mapper (MARC21, UNIMARC, Dublin Core, Calibre OPF) makes of one harvested record,
// before the harvest service turns it into an IngestRecord of a site.
import type { IngestRecord } from '../ingest/service.ts';

/** "Is part of": an anthology, a periodical issue or a series the record belongs to. */
export interface AggregationRef {
  /** Name of the aggregation (773 $t, 461 $t/$a, calibre:series). */
  name: string;
  /** Issue or volume (773 $g, 461 $e). */
  issue?: string | null;
  isbn?: string | null;
  /** Position of the part inside the aggregation; null when not a whole number. */
  order?: number | null;
  placeDatePublisher?: string | null;
  /** The aggregation's own record identifier at the source (773 $o / 461 $0), when it has one. */
  itemIdentifier?: string | null;
  /** A URL of the aggregation (773 $6 as amusewiki writes it). */
  uri?: string | null;
}

/** A link of the record besides the one chosen as its `uri`. */
export interface RecordLink {
  uri: string;
  uri_label: string | null;
  content_type: string | null;
}

/** Bibliographic fields of one record. An empty title means the record cannot be stored (reported). */
export type MappedRecord = Omit<IngestRecord, 'siteId' | 'identifier' | 'datestamp' | 'full_text'> & {
  aggregations: AggregationRef[];
  /** The source's identifier of the record this one translates (MARC21 765 $o), when it names one. */
  originalIdentifier?: string | null;
  /** The record's other http(s) links (spec §5.6 `links`), in record order. */
  links?: RecordLink[];
  /** Link values left out for not being http(s) (a `javascript:` 856 $u): logged by the harvest, never stored. */
  linksLeftOut?: string[];
  /** Branches of a Koha catalogue holding items (952 $a/$b, 995 $b/$c), each once: one record, never a copy per branch. */
  internal_library_codes?: string[];
};
