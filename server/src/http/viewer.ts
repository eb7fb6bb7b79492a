// Who is asking: decides visibility and permissions. Filled from the session by the accounts module.
export interface Viewer {
  userId: number | null;
  username: string | null;
  email: string;
  isSuperuser: boolean;
  isLibraryAdmin: boolean;
  canMerge: boolean;
  canSetExclusions: boolean;
  /** Libraries the user is affiliated with (they may see these even when private). */
  libraryIds: number[];
}

export const ANONYMOUS: Viewer = {
  userId: null, username: null, email: '', isSuperuser: false, isLibraryAdmin: false,
  canMerge: false, canSetExclusions: false, libraryIds: [],
};
