import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

/** Rows a pane's border and title take from its height. */
export const paneChromeRows = 3;
/** Columns a pane's border and padding take from its width. */
export const paneChromeColumns = 4;

/** A bordered box with a title line; the focused pane's border is coloured. */
export function Pane({ title, width, height, focused, children }: { title: string; width: number; height: number; focused: boolean; children?: ReactNode }) {
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={focused ? 'cyan' : 'gray'} paddingX={1} overflow="hidden">
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      {children}
    </Box>
  );
}

/** A label column and its value, on one line: cut at the end to fit, or at the start to keep a cursor in view. */
export function Field({ label, width, children, highlight = false, keepEnd = false }: { label: string; width: number; children: ReactNode; highlight?: boolean; keepEnd?: boolean }) {
  return (
    <Box flexShrink={0}>
      <Box width={width} flexShrink={0}>
        <Text color={highlight ? 'cyan' : undefined} bold={highlight} dimColor={!highlight}>
          {label}
        </Text>
      </Box>
      <Text wrap={keepEnd ? 'truncate-start' : 'truncate-end'}>{children}</Text>
    </Box>
  );
}
