import { jobsRefreshSeconds, sections } from './sections';

/** Every key of the TUI, grouped as the help screen (`?`) shows them; it fits a 24-row terminal. */
export const keymap: readonly { title: string; keys: readonly [string, string][] }[] = [
  {
    title: 'Browse',
    keys: [
      ['↑ ↓ j k  Home End g G', 'move; first / last item'],
      ['Enter →', 'open the detail pane'],
      ['Esc ← q', 'back to the list; in the list, Esc clears a search, then Esc or q quits'],
      // From the section bar's own list, so the two never disagree.
      [`Tab Shift-Tab 1-${sections.length}`, sections.map((s) => s.title).join(', ')],
      ['n PgDn  p PgUp', 'next / previous page'],
      ['/', 'search (the list’s own query; Enter an empty one to clear it)'],
      ['r  ?  Ctrl-C', 'reload · this help · quit at once'],
      ['R  X', `on a job (Jobs, 8; admin token): retry · cancel; it reloads every ${jobsRefreshSeconds} s`],
    ],
  },
  {
    title: 'On a video (Videos, Feed, Search)',
    keys: [
      ['e', 'edit name, description, privacy in a form (Enter saves, Esc cancels)'],
      ['l', 'like / unlike (another’s video)'],
      ['w', 'add to / remove from watch later'],
      ['t  T', 'add a tag / remove a tag'],
      ['a  c', 'add to an album / a channel (pick from a list)'],
      ['d', 'delete (asks first)'],
    ],
  },
];
