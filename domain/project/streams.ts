/** Stream name of a project (DESIGN §3): its content, its packs and its saved plan. The only place it is built or read. */
const PROJECT_PREFIX = 'project-';

export const projectStream = (projectId: string): string => `${PROJECT_PREFIX}${projectId}`;
/** True for a project stream. */
export const isProjectStream = (stream: string): boolean => stream.startsWith(PROJECT_PREFIX);
