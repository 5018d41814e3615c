package io.sluice.bench.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws rates over time as a PNG, one line per series: the rate of each interval (per second) against the
 * seconds since the series began. Headless; drawn with XChart like the percentile plots.
 */
public final class ThroughputPlot {
    private static final int WIDTH = 1_000;
    private static final int HEIGHT = 500;

    private ThroughputPlot() {
    }

    /** One line: its label, the seconds between its points, and the rate per second of each interval. */
    public record Line(String label, double intervalSeconds, double[] perSecond) {
    }

    /** Writes {@code lines} to {@code png}; lines without points are left out. */
    public static void write(final Path png, final String title, final String rateLabel, final List<Line> lines) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        ImageIO.setUseCache(false);
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("seconds").yAxisTitle(rateLabel).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSW);
        chart.getStyler().setYAxisMin(0.0);
        for (final Line line : lines) {
            if (line.perSecond().length == 0) {
                continue;
            }
            final double[] seconds = new double[line.perSecond().length];
            for (int i = 0; i < seconds.length; i++) {
                seconds[i] = (i + 1) * line.intervalSeconds();
            }
            final XYSeries series = chart.addSeries(line.label(), seconds, line.perSecond());
            series.setMarker(SeriesMarkers.NONE);
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("no data", new double[] {0}, new double[] {0});
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write the plot " + png.toAbsolutePath(), e);
        }
    }
}
