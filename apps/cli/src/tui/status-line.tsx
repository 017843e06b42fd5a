import { Box, Text } from 'ink';
import { sectionById } from './sections';
import { currentList, type State } from './state';

/** `/very/long/path/reelbase.db` → `/very/…/reelbase.db`: the end of a target says the most. */
export function shorten(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, Math.max(0, width));
  const tail = Math.ceil((width - 1) * 0.6);
  return `${text.slice(0, width - 1 - tail)}…${text.slice(text.length - tail)}`;
}

/** Who, where and which API version on the left; the list's page and what is under way on the right. */
export function StatusLine({ state, width }: { state: State; width: number }) {
  const { session, busy } = state;
  const list = currentList(state);
  const { page } = list;
  const right = [`${sectionById(state.section).title}${page ? ` page ${page.page}/${Math.max(1, Math.ceil(page.total / page.perPage))}` : ''}`];
  if (list.status === 'loading') right.push('loading…');
  if (busy) right.push(busy);
  const rightText = `${right.join(' · ')} `;
  const fixed = ` ${session.user} ·  · API ${session.apiVersion}`;
  const target = shorten(session.target, Math.max(8, width - rightText.length - fixed.length - 2));
  const left = ` ${session.user} · ${target} · API ${session.apiVersion}`;
  const gap = width - left.length - rightText.length;
  const text = gap >= 1 ? `${left}${' '.repeat(gap)}${rightText}` : `${left} ${rightText}`.slice(0, width);
  return (
    <Box width={width} height={1} flexShrink={0} overflow="hidden">
      <Text inverse>{text}</Text>
    </Box>
  );
}
