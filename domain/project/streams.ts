/** Stream name of a project (DESIGN §3): its content, its packs and its saved plan. */
export const projectStream = (projectId: string): string => `project-${projectId}`;
