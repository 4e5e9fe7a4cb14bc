ALTER TABLE "device_authorizations" ALTER COLUMN "user_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD COLUMN "user_code_hash" text;--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD CONSTRAINT "device_authorizations_user_code_hash_unique" UNIQUE("user_code_hash");