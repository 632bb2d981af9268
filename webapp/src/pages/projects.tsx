/**
 * Projects (/v1/projects): saved loading jobs (vehicle slots, items,
 * groups, options) with their last plan, with search, paging, create, edit and delete. Slots
 * and items are edited as tables (their main fields), everything else as JSON in the pack
 * request shape. "Pack" packs a project (POST /v1/projects/{id}/pack) and opens the new job.
 */
import { PackProjectButton } from '../jobs/pack-project-button.js';
import { SavedDataPage, type SavedDataKind } from '../saved-data/saved-data-page.js';
import { PROJECT_FIELDS, PROJECT_ROWS } from '../saved-data/kinds.js';
import { valueText } from '../../../display/text.js';

const count = (v: unknown): string => (Array.isArray(v) ? String(v.length) : '0');

const PROJECTS: SavedDataKind = {
  title: 'Projects',
  noun: 'project',
  path: '/v1/projects',
  nameOf: (r) => valueText(r['name'] ?? r.id),
  specs: PROJECT_FIELDS,
  rowSpecs: PROJECT_ROWS,
  blank: { groups: [], options: {} },
  columns: [
    { heading: 'Vehicle slots', cell: (r) => count(r['vehicles']), numeric: true },
    { heading: 'Items', cell: (r) => count(r['items']), numeric: true },
    {
      heading: 'Plan',
      cell: (r) =>
        r['packing'] ? (
          'packing…'
        ) : typeof r['pdf_url'] === 'string' && r['pdf_url'] ? (
          <>
            <a href={r['pdf_url']}>PDF</a>
            {typeof r['viewer_url'] === 'string' && r['viewer_url'] ? (
              <>
                {' · '}
                <a href={r['viewer_url']}>3D view</a>
              </>
            ) : null}
          </>
        ) : r['plan_saved_at'] ? (
          'saved'
        ) : (
          'none yet'
        ),
    },
    {
      heading: 'Pack',
      cell: (r) => (
        <PackProjectButton
          id={r.id}
          name={valueText(r['name'] ?? r.id)}
          packingJobId={typeof r['packing'] === 'string' ? r['packing'] : null}
        />
      ),
    },
    {
      heading: 'Updated',
      cell: (r) => (typeof r['updated_at'] === 'string' ? new Date(r['updated_at']).toLocaleString() : ''),
    },
  ],
  intro: (
    <p>
      A project keeps vehicle slots (<code>vehicle_id</code> + <code>quantity</code>) and items in the pack request
      shape. The tables hold the fields used most; “Edit as JSON” reaches every field (overrides, groups, options).
      Packing a project saves its plan here.
    </p>
  ),
};

/** The projects page: heading "Projects", button "New project", form button "Save project". */
export function ProjectsPage() {
  return <SavedDataPage kind={PROJECTS} />;
}
