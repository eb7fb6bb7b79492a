// Shapes of the issue-5 public calls (spec §7) not covered by a single shared type.
import type { ReportResponse } from '../lib/shared';

export type {
  AgentListItem,
  AgentsResponse as AgentSearchResponse,
  WikidataCard as WikidataResponse,
  WikidataStatement,
} from '../lib/shared';

/** POST /report/bug */
export interface BugReportBody {
  message: string;
  email_from: string;
}

/** A report's answer: success 'OK' with the report id, or an `error` (older servers answered 200 with it). */
export type ReportAnswer = Partial<ReportResponse> & { error?: string };
