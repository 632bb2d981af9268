/** Stream name of a saved cargo template (DESIGN §3: `template-<id>`). */
export const templateStream = (templateId: string): string => `template-${templateId}`;
