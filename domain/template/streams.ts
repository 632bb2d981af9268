/** Stream name of a saved cargo template (DESIGN §3: `template-<id>`); the only place it is built or read. */
export const TEMPLATE_STREAM_PREFIX = 'template-';
export const templateStream = (templateId: string): string => `${TEMPLATE_STREAM_PREFIX}${templateId}`;
