/** Screen arithmetic, kept pure so resizing is testable without a terminal. */

/** Below this many columns the list and the detail pane take turns instead of sharing the screen. */
export const twoPaneColumns = 90;

/** Lines outside the panes: the section bar, the footer line and the status line. */
export const chromeRows = 3;

/**
 * The screen is drawn one line short of the terminal: Ink redraws a frame as tall as the terminal
 * by clearing it whole (scrollback included), which flickers and, in tmux, spills the frame into
 * the shell's screen after quitting.
 */
export const screenRows = (rows: number): number => Math.max(chromeRows + 5, rows - 1);

/** The widths of the list and the detail pane, or null when only one fits. */
export function paneWidths(columns: number): { list: number; detail: number } | null {
  if (columns < twoPaneColumns) return null;
  const list = Math.min(70, Math.max(36, Math.floor(columns * 0.45)));
  return { list, detail: columns - list };
}

/** The items `[start, end)` to draw in `height` rows so that `selected` stays in view, near the middle. */
export function visibleWindow(count: number, selected: number, height: number): { start: number; end: number } {
  const rows = Math.max(1, height);
  if (count <= rows) return { start: 0, end: count };
  const start = Math.max(0, Math.min(selected - Math.floor(rows / 2), count - rows));
  return { start, end: start + rows };
}
