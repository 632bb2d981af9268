/**
 * What the viewer tells the job page that frames it (viewer/src/edit/job-page-news.ts): the
 * messages the web app's job page takes (webapp/src/jobs/plan-editor.ts viewerNewsOf, the page's
 * own check), posted to the parent for the viewer's own origin only, and when the framing page is
 * the job's page.
 */
import t from 'tap';
import { viewerNewsOf } from '../../webapp/src/jobs/plan-editor.js';
import {
  framedByJobPage,
  jobPagePath,
  replanCreated,
  revisionSaved,
  tellJobPage,
  type ViewerWindow,
} from '../../viewer/src/edit/job-page-news.js';

const ORIGIN = 'http://service.test';

/** A framed viewer window: its parent records what is posted, with the target origin. */
function framed(): { win: ViewerWindow; posted: { message: unknown; targetOrigin: string }[] } {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  const win = {
    parent: { postMessage: (message: unknown, targetOrigin: string) => void posted.push({ message, targetOrigin }) },
    location: { origin: ORIGIN },
  };
  return { win, posted };
}

t.test("the job page takes the viewer's messages as news of its job", async (t) => {
  const { win, posted } = framed();
  t.equal(tellJobPage(win, revisionSaved('job_abc', 3)), true);
  t.equal(tellJobPage(win, replanCreated('job_new1')), true);
  t.same(
    posted.map((p) => p.targetOrigin),
    [ORIGIN, ORIGIN],
    "for the viewer's own origin only",
  );
  const frame = {};
  const news = posted.map((p) =>
    viewerNewsOf({ origin: ORIGIN, source: frame, data: p.message }, { origin: ORIGIN, frame, jobId: 'job_abc' }),
  );
  t.same(news, [
    { kind: 'revision-saved', revision: 3 },
    { kind: 'replan-created', jobId: 'job_new1' },
  ]);
});

t.test('not framed: nothing is posted', async (t) => {
  const posted: unknown[] = [];
  const win: ViewerWindow & { parent: unknown } = {
    location: { origin: ORIGIN },
    parent: { postMessage: (m: unknown) => void posted.push(m) },
  };
  (win as { parent: unknown }).parent = win;
  (win as unknown as { postMessage: (m: unknown) => void }).postMessage = (m) => void posted.push(m);
  t.equal(tellJobPage(win, revisionSaved('job_abc', 1)), false);
  t.same(posted, []);
});

t.test("the job's page, and only it, is told to open a re-planned job", async (t) => {
  t.equal(jobPagePath('job_a b'), '/app/jobs/job_a%20b');
  t.equal(framedByJobPage('/app/jobs/job_abc', 'job_abc'), true);
  t.equal(framedByJobPage('/app/jobs/job_abc/', 'job_abc'), true);
  t.equal(framedByJobPage('/app/jobs/job_other', 'job_abc'), false, "another job's page");
  t.equal(framedByJobPage('/app/playground', 'job_abc'), false, 'the playground does not listen');
  t.equal(framedByJobPage(null, 'job_abc'), false, 'not framed by this origin');
});
