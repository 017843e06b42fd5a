/**
 * What a category holds for one viewer, as its lists show them: the filters below are the ones the
 * lists page through, so each total is its list's.
 */
export interface CategoryStats {
  channels: number;
  groups: number;
  users: number;
  videos: number;
  /** When a video the viewer may see was last put in the category (reelbase features no videos itself); null when none was. */
  lastVideoTime: string | null;
}
