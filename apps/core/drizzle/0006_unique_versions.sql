DROP INDEX `agent_versions_hash_idx`;--> statement-breakpoint
-- Pushes of the same content that once ran at the same time made one version each: keep the first of each
-- content, point what used the others at it, then drop the others, so the unique indexes can be built.
UPDATE `environments` SET `version_id` = (
  SELECT `keep`.`id` FROM `agent_versions` `dup` JOIN `agent_versions` `keep`
    ON `keep`.`workspace_id` = `dup`.`workspace_id` AND `keep`.`content_hash` = `dup`.`content_hash`
  WHERE `dup`.`id` = `environments`.`version_id` ORDER BY `keep`.`number` LIMIT 1
) WHERE `version_id` IS NOT NULL;--> statement-breakpoint
UPDATE `chats` SET `version_id` = (
  SELECT `keep`.`id` FROM `agent_versions` `dup` JOIN `agent_versions` `keep`
    ON `keep`.`workspace_id` = `dup`.`workspace_id` AND `keep`.`content_hash` = `dup`.`content_hash`
  WHERE `dup`.`id` = `chats`.`version_id` ORDER BY `keep`.`number` LIMIT 1
);--> statement-breakpoint
DELETE FROM `agent_versions` WHERE EXISTS (
  SELECT 1 FROM `agent_versions` `earlier`
  WHERE `earlier`.`workspace_id` = `agent_versions`.`workspace_id`
    AND `earlier`.`content_hash` = `agent_versions`.`content_hash`
    AND `earlier`.`number` < `agent_versions`.`number`
);--> statement-breakpoint
CREATE UNIQUE INDEX `agent_versions_number_idx` ON `agent_versions` (`workspace_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `agent_versions_hash_idx` ON `agent_versions` (`workspace_id`,`content_hash`);
