-- 0013_transcript: what a screen reader reads of a panel (issue 14 part 5). Next to each slice's alternative
-- text (0001 `episode_images.alt`), an optional transcript: the slice's speech balloons, captions and sound
-- effects in reading order, as a JSON array of lines `{"kind": "speech"|"caption"|"sfx", "speaker"?, "text"}`
-- (shape checked by the import and the seed through src/features/viewer/transcript.ts). NULL: none, and the
-- viewer behaves as before for the episode.
ALTER TABLE episode_images ADD COLUMN transcript TEXT CHECK (transcript IS NULL OR (json_valid(transcript) AND json_type(transcript) = 'array'));
