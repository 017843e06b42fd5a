import { Box, Text } from 'ink';
import { clip, formatValue } from './format';
import { visibleWindow } from './layout';
import { Pane, paneChromeColumns, paneChromeRows } from './pane';
import { sectionById, type SectionId } from './sections';
import type { ListState } from './state';

/** The items of the current section: one line each, the selection kept in view. */
export function ListView({ section, list, width, height, focused }: { section: SectionId; list: ListState; width: number; height: number; focused: boolean }) {
  const s = sectionById(section);
  const { page } = list;
  const title = `${s.title}${page ? ` (${page.total})` : ''}${list.query ? ` · search “${list.query}”` : ''}`;
  const inner = width - paneChromeColumns;
  let rows = height - paneChromeRows;
  const notes = [];
  if (list.status === 'error') {
    notes.push(<Text key="error" color="red" wrap="truncate-end">{`${list.error} (r to retry)`}</Text>);
    rows--;
  }
  if (!page) {
    const idle = s.searchOnly && list.status === 'idle';
    if (list.status !== 'error') notes.push(<Text key="loading" dimColor>{idle ? 'Press / to search every video you may see.' : 'Loading…'}</Text>);
    return <Pane title={title} width={width} height={height} focused={focused}>{notes}</Pane>;
  }
  if (!page.items.length) {
    notes.push(<Text key="empty" dimColor>{list.query ? `Nothing matches “${list.query}”.` : `No ${s.title.toLowerCase()} yet.`}</Text>);
  }
  const { start, end } = visibleWindow(page.items.length, list.selected, rows);
  const shown = page.items.slice(start, end);
  const asides = shown.map((item) => (s.aside ? formatValue(item, s.aside.path, s.aside.format) : ''));
  const asideWidth = Math.min(16, Math.max(0, ...asides.map((a) => a.length)));
  const labelWidth = Math.max(4, inner - (asideWidth ? asideWidth + 1 : 0));
  return (
    <Pane title={title} width={width} height={height} focused={focused}>
      {notes}
      {shown.map((item, i) => {
        const selected = start + i === list.selected;
        const label = `${selected ? '›' : ' '} ${formatValue(item, s.label) || String(item.uri)}`;
        return (
          <Box key={`${start + i}:${String(item.uri)}`} flexShrink={0}>
            <Text inverse={selected && focused} bold={selected}>
              {clip(label, labelWidth).padEnd(labelWidth)}
            </Text>
            {asideWidth > 0 && <Text dimColor>{` ${clip(asides[i], asideWidth).padEnd(asideWidth)}`}</Text>}
          </Box>
        );
      })}
    </Pane>
  );
}
