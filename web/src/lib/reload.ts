/** Browser actions behind an object, so tests can spy on them. */
export const browser = {
  /** Full page reload. */
  reload(): void {
    window.location.reload();
  },
};
