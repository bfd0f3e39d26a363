-- Issue 37 point 4: a reader reports a problem with an episode from the viewer (src/features/qna/qna.server.ts
-- `reportEpisode`). A report is a support question like any other (answered with `npm run ops -- support answer`, read
-- on /qna) that also names the episode, the problem and the reader's device (their browser's User-Agent).
ALTER TABLE qnas ADD COLUMN episode_id INTEGER REFERENCES episodes (id) ON DELETE SET NULL;
ALTER TABLE qnas ADD COLUMN problem TEXT CHECK (problem IS NULL OR problem IN ('IMAGE', 'ORDER', 'TEXT', 'OFFENSIVE', 'OTHER'));
ALTER TABLE qnas ADD COLUMN device TEXT;
-- the start of the edition's calendar day the report was filed on (UTC instant, as `dayStart` gives it)
ALTER TABLE qnas ADD COLUMN report_day TEXT;
-- one report per reader per episode per day: the insert that would be a second one does nothing
CREATE UNIQUE INDEX qnas_report_once ON qnas (user_id, episode_id, report_day) WHERE episode_id IS NOT NULL;
