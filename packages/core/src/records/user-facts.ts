/** What the User representation needs besides the record, for its viewer (domain/users.ts loadUserFacts). */
export interface UserFacts {
  /** When the viewer followed the user; null when they do not. */
  followed: string | null;
  /** The channels the user moderates that the viewer may see: what the `moderated_channels` connection lists. */
  moderatedChannels: number;
  /** The videos shared with the user (`shared`). */
  shared: number;
  /** The totals of the user's lists as the viewer lists them; null for the user themselves, whose counters count what they list. */
  listed: ListedTotals | null;
}

/** The connections whose lists show another caller less than their user's counters count (domain/listed-totals.ts). */
export interface ListedTotals {
  videos: number;
  albums: number;
  channels: number;
  groups: number;
  likes: number;
  appearances: number;
  folders: number;
  watchlater: number;
  watched: number;
  categories: number;
  shared: number;
}
