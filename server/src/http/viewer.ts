// Who is asking: decides visibility. Accounts (a later module) fill in the logged-in fields.
export interface Viewer {
  userId: number | null;
  isSuperuser: boolean;
  canMerge: boolean;
  /** Libraries the user is affiliated with (they may see these even when private). */
  libraryIds: number[];
}

export const ANONYMOUS: Viewer = { userId: null, isSuperuser: false, canMerge: false, libraryIds: [] };
