package io.tributary.ingest;

import java.util.List;

/**
 * Where a file ingest stands, for {@code tributary checkpoint show}: what its ingest-log holds,
 * plus the files on disk that changed after they were ingested.
 *
 * @param pipeline the pipeline's name
 * @param ingestLogTopic the topic the state was read from
 * @param files every ingested file, in the order they were published
 * @param nextBatchId the id the next batch will take
 * @param maxEventTimeMs the largest event time published so far, or null (none, or no event time)
 * @param watermarkMs the watermark of the last batch (0 before any), or null without a watermark
 * @param changedFiles ingested files that differ on disk now
 * @param cleanSource the {@link CleanSource} policy's name: {@code off}, {@code archive} or {@code delete}
 * @param filesCleaned ingested files no longer in the input folder (archived or deleted); 0 with {@code off}
 * @param filesToClean ingested files still in the input folder as they were read, which the next
 *                     start archives or deletes (a run stopped between a commit and its cleaning); 0 with {@code off}
 * @param recordedSchema the schema recorded with the ingest's progress (grown by schema evolution, or
 *                       inferred), as DDL; null while the ingest reads with the spec's schema
 */
public record IngestStatus(String pipeline, String ingestLogTopic, List<IngestedFile> files, long nextBatchId,
                           Long maxEventTimeMs, Long watermarkMs, List<ChangedFile> changedFiles,
                           String cleanSource, int filesCleaned, int filesToClean, String recordedSchema) {
}
