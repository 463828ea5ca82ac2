package io.tributary.delta;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.ExpressionHandler;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.engine.MetricsReporter;
import io.delta.kernel.engine.ParquetHandler;
import java.util.List;

/** An engine that hands every call to another; subclasses replace the parts they change. */
public class ForwardingEngine implements Engine {
    protected final Engine engine;

    public ForwardingEngine(Engine engine) {
        this.engine = engine;
    }

    @Override
    public ExpressionHandler getExpressionHandler() {
        return engine.getExpressionHandler();
    }

    @Override
    public JsonHandler getJsonHandler() {
        return engine.getJsonHandler();
    }

    @Override
    public FileSystemClient getFileSystemClient() {
        return engine.getFileSystemClient();
    }

    @Override
    public ParquetHandler getParquetHandler() {
        return engine.getParquetHandler();
    }

    @Override
    public List<MetricsReporter> getMetricsReporters() {
        return engine.getMetricsReporters();
    }
}
