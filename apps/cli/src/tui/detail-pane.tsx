import { Box, Text } from 'ink';
import { formatValue, wrapWords } from './format';
import { Field, Pane, paneChromeColumns } from './pane';
import { sectionById, type SectionId } from './sections';
import type { Item } from './state';

const labelWidth = 13;
/** Fields shown wrapped over several lines, after the one-line ones. */
const longFields = new Set(['Description', 'Bio']);

/** Everything the list item says about itself, labelled; the video keys when it is (or carries) a video. */
export function DetailPane({ section, item, width, height, focused }: { section: SectionId; item: Item | undefined; width: number; height: number; focused: boolean }) {
  if (!item) {
    return (
      <Pane title="Details" width={width} height={height} focused={focused}>
        <Text dimColor>Nothing selected.</Text>
      </Pane>
    );
  }
  const s = sectionById(section);
  const values = s.detail.map((f) => ({ label: f.label, value: formatValue(item, f.path, f.format) })).filter((f) => f.value !== '');
  return (
    <Pane title={formatValue(item, s.label) || String(item.uri)} width={width} height={height} focused={focused}>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {values.map(({ label, value }) =>
          longFields.has(label) ? (
            wrapWords(value, Math.max(10, width - paneChromeColumns - labelWidth)).map((line, i) => (
              <Field key={`${label}:${i}`} label={i ? '' : label} width={labelWidth}>
                {line}
              </Field>
            ))
          ) : (
            <Field key={label} label={label} width={labelWidth}>
              {value}
            </Field>
          ),
        )}
      </Box>
    </Pane>
  );
}
