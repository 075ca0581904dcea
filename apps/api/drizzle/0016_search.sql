DROP INDEX "shipments_recipient_name_words";--> statement-breakpoint
DROP INDEX "shipments_sender_name_words";--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "search_words" "tsvector";--> statement-breakpoint
CREATE INDEX "shipments_search_words" ON "shipments" USING gin ("search_words");--> statement-breakpoint
-- hand-written
-- The names' search tokens (issue 19). Every word of a name, lower-cased and accent-folded as the
-- API folds the typed term, is a token, and so is each of its beginnings ('p:q' … 'p:quispe'); the
-- sender's tokens carry 's:'. The word being typed is then matched as one exact token: a GIN
-- partial match ('quis:*') would gather every word of the range into a bitmap, a cost that grows
-- with the table, and the planner would have no statistics for it. Each pair of a name's words is
-- a token too ('quispe+rosa'). Stored (not an expression
-- index) so that walking the newest rows tests each one without recomputing it.
CREATE OR REPLACE FUNCTION shipment_search_words(recipient text, sender text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  tokens text[] := '{}';
  words text[];
  side text;
  name text;
  word text;
  other text;
  k int;
BEGIN
  FOREACH side IN ARRAY ARRAY['', 's:'] LOOP
    name := CASE WHEN side = '' THEN recipient ELSE sender END;
    CONTINUE WHEN name IS NULL;
    words := '{}';
    FOREACH word IN ARRAY regexp_split_to_array(translate(lower(name), 'áéíóúüñ', 'aeiouun'), '[^a-z0-9]+') LOOP
      CONTINUE WHEN word = '' OR word = ANY (words);
      tokens := tokens || (side || word);
      -- Beginnings up to 20 letters: a longer word being typed is looked for by its first 20.
      FOR k IN 1..least(length(word), 20) LOOP
        tokens := tokens || (side || 'p:' || left(word, k));
      END LOOP;
      -- Each pair of words of the name ('quispe+rosa', in order), so two common words typed together
      -- are one short list to read rather than two long ones to intersect.
      FOREACH other IN ARRAY words LOOP
        tokens := tokens || (side || least(word COLLATE "C", other) || '+' || greatest(word COLLATE "C", other));
      END LOOP;
      words := words || word;
    END LOOP;
  END LOOP;
  RETURN array_to_tsvector(tokens);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION shipments_search_words_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_words := shipment_search_words(NEW.recipient_name, NEW.sender_name);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipments_search_words
  BEFORE INSERT OR UPDATE OF recipient_name, sender_name ON shipments
  FOR EACH ROW EXECUTE FUNCTION shipments_search_words_track();
--> statement-breakpoint
-- Filling the existing rows without the index and building it once is far cheaper than
-- maintaining it row by row.
DROP INDEX "shipments_search_words";
--> statement-breakpoint
UPDATE shipments SET search_words = shipment_search_words(recipient_name, sender_name);
--> statement-breakpoint
CREATE INDEX "shipments_search_words" ON "shipments" USING gin ("search_words");
--> statement-breakpoint
ANALYZE shipments;
