import type { Client } from '@reelbase/http';
import { Box, useApp, useInput, type Key } from 'ink';
import { DetailPane } from './detail-pane';
import { EditFormView } from './edit-form';
import { Footer } from './footer';
import { nameOf } from './format';
import { Help } from './help';
import { chromeRows, paneWidths, screenRows } from './layout';
import { ListView } from './list-view';
import { Picker } from './picker';
import { SectionBar } from './section-bar';
import { currentList, selectedItem, selectedVideo, type Keypress, type Session, type State } from './state';
import { StatusLine } from './status-line';
import { useTerminalSize } from './use-terminal-size';
import { useTui } from './use-tui';

/** Control characters that arrive inside a chunk of typed text. */
const controlKeys: Record<string, Keypress['name']> = { '\r': 'return', '\n': 'return', '\t': 'tab', '\u007F': 'backspace', '\b': 'backspace' };

/**
 * An Ink key as the reducer's keypresses. Keys typed faster than the screen reads them (a held
 * `j`, tmux send-keys, a paste) arrive as one chunk of text: it is split into single keys.
 */
export function toKeypresses(input: string, key: Key): Keypress[] {
  const name: Keypress['name'] = key.upArrow ? 'up'
    : key.downArrow ? 'down'
    : key.leftArrow ? 'left'
    : key.rightArrow ? 'right'
    : key.pageUp ? 'pageUp'
    : key.pageDown ? 'pageDown'
    : key.home ? 'home'
    : key.end ? 'end'
    : key.return ? 'return'
    : key.escape ? 'escape'
    : key.tab ? 'tab'
    // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
    : key.backspace || key.delete ? 'backspace'
    : undefined;
  if (name || key.ctrl || input.length <= 1) return [{ text: name ? '' : input, name, shift: key.shift, ctrl: key.ctrl }];
  return [...input].map((char) => (controlKeys[char] ? { text: '', name: controlKeys[char] } : { text: char, shift: /[A-Z]/.test(char) }));
}

/** The whole screen: section bar, list and detail pane (or the form, a pick list, the help), footer, status line. */
export function App({ client, session }: { client: Client; session: Session }) {
  const { exit } = useApp();
  const [state, dispatch] = useTui(client, session, exit);
  const { columns, rows } = useTerminalSize();
  useInput((input, key) => toKeypresses(input, key).forEach((k) => dispatch({ type: 'key', key: k })));
  const height = screenRows(rows) - chromeRows;
  return (
    <Box flexDirection="column" width={columns} height={screenRows(rows)}>
      <SectionBar current={state.section} width={columns} />
      <Body state={state} columns={columns} height={height} />
      <Footer state={state} width={columns} />
      <StatusLine state={state} width={columns} />
    </Box>
  );
}

function Body({ state, columns, height }: { state: State; columns: number; height: number }) {
  if (state.overlay?.kind === 'help') return <Help width={columns} height={height} />;
  const widths = paneWidths(columns);
  const { overlay } = state;
  // The form and pick lists take the detail pane's place.
  const sidePane = overlay?.kind === 'edit' || overlay?.kind === 'pick';
  const showSide = widths !== null || state.focus === 'detail' || sidePane;
  const showList = widths !== null || !showSide;
  const sideWidth = widths?.detail ?? columns;
  const list = (
    <ListView section={state.section} list={currentList(state)} width={widths?.list ?? columns} height={height} focused={state.focus === 'list' && !sidePane} />
  );
  let side;
  if (overlay?.kind === 'edit') side = <EditFormView form={overlay.form} width={sideWidth} height={height} />;
  else if (overlay?.kind === 'pick') side = <Picker pick={overlay} videoName={nameOf(selectedVideo(state))} width={sideWidth} height={height} />;
  else side = <DetailPane section={state.section} item={selectedItem(state)} width={sideWidth} height={height} focused={state.focus === 'detail'} />;
  return (
    <Box height={height} flexShrink={0}>
      {showList && list}
      {showSide && side}
    </Box>
  );
}
