import { Box, Text } from 'ink';
import { clip } from './format';
import { visibleWindow } from './layout';
import { Pane, paneChromeColumns, paneChromeRows } from './pane';
import type { Overlay } from './state';

type Pick = Extract<Overlay, { kind: 'pick' }>;

const titles: Record<Pick['purpose'], (name: string) => string> = {
  album: (name) => `Add “${name}” to an album`,
  channel: (name) => `Add “${name}” to a channel`,
  untag: (name) => `Remove a tag from “${name}”`,
};

/** A list to pick an album, a channel or a tag from. */
export function Picker({ pick, videoName, width, height }: { pick: Pick; videoName: string; width: number; height: number }) {
  const rows = height - paneChromeRows - 1;
  const { start, end } = visibleWindow(pick.choices.length, pick.selected, rows);
  const inner = width - paneChromeColumns;
  return (
    <Pane title={titles[pick.purpose](videoName)} width={width} height={height} focused>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {pick.status === 'loading' && <Text dimColor>Loading…</Text>}
        {pick.choices.slice(start, end).map((choice, i) => {
          const selected = start + i === pick.selected;
          return (
            <Text key={choice.id} inverse={selected} bold={selected}>
              {clip(`${selected ? '›' : ' '} ${choice.label}`, inner).padEnd(inner)}
            </Text>
          );
        })}
      </Box>
      <Text dimColor wrap="truncate-end">{`↑/↓ choose · Enter ${pick.purpose === 'untag' ? 'remove' : 'add'} · Esc cancel`}</Text>
    </Pane>
  );
}
