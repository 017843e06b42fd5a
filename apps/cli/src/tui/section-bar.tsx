import { Box, Text } from 'ink';
import { sections, type SectionId } from './sections';

/** The sections, numbered for their keys; the current one highlighted. One line, cut when narrow. */
export function SectionBar({ current, width }: { current: SectionId; width: number }) {
  return (
    <Box width={width} height={1} flexShrink={0} overflow="hidden">
      <Text wrap="truncate-end">
        {width >= 80 && (
          <Text bold color="cyan">
            {' reelbase '}
          </Text>
        )}
        {sections.map((s, i) => (
          <Text key={s.id} inverse={s.id === current} bold={s.id === current}>
            {` ${i + 1} ${s.title} `}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
