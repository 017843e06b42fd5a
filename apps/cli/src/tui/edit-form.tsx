import { Box, Text } from 'ink';
import { fieldLabels, formFields, type EditField, type EditForm } from './form';
import { Field, Pane } from './pane';

const labelWidth = 15;

/** The inline form that edits a video: the focused field shows a cursor (or ‹ › around the privacy). */
export function EditFormView({ form, width, height }: { form: EditForm; width: number; height: number }) {
  const shown = (field: EditField): string => {
    const focused = form.focus === field;
    if (field === 'view') return focused ? `‹ ${form.values.view} ›` : form.values.view;
    const text = field === 'password' ? '•'.repeat(form.values.password.length) : form.values[field];
    return focused ? `${text}▌` : text;
  };
  return (
    <Pane title={`Edit “${form.original.name}”`} width={width} height={height} focused>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {formFields(form).map((field) => (
          <Field key={field} label={`${form.focus === field ? '› ' : '  '}${fieldLabels[field]}`} width={labelWidth} highlight={form.focus === field} keepEnd={form.focus === field}>
            {shown(field)}
          </Field>
        ))}
        {form.error && (
          <Box marginTop={1}>
            <Text color="red" wrap="wrap">
              {form.error}
            </Text>
          </Box>
        )}
      </Box>
      <Text dimColor wrap="truncate-end">
        {form.saving ? 'Saving…' : 'Tab/↓ next field · ←/→ privacy · Enter save · Esc cancel'}
      </Text>
    </Pane>
  );
}
