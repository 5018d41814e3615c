package io.sluice.testkit;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every public type of every module, main and test code, has a Javadoc that opens with one short sentence.
 * The first sentence is javadoc's own (the compiler's doc-comment parser: up to the first period followed by white
 * space, a block tag or a block HTML element); it must end with a period and hold at most {@value #MAX_WORDS} words.
 * Generated sources (JMH's, under {@code target}) are not read.
 */
final class TypeJavadocTest {
    /** The most words a type's first sentence may hold. */
    static final int MAX_WORDS = 25;
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@\\w+\\s*|}");
    /**
     * Sources that work in progress on other branches is changing (replication, the gateway's config): their first
     * sentences are shortened once that work is merged, and this list is emptied.
     */
    private static final Set<String> CHANGING_ELSEWHERE = Set.of();

    @Test
    void everyPublicTypeOpensItsJavadocWithOneShortSentence() throws IOException {
        final List<String> problems = new ArrayList<>();
        final Path root = repositoryRoot();
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, Locale.ROOT, null)) {
            final JavacTask task = (JavacTask) javac.getTask(null, files, null, List.of("-proc:none"), null,
                    files.getJavaFileObjectsFromPaths(sources(root)));
            final DocTrees docs = DocTrees.instance(task);
            for (final CompilationUnitTree unit : task.parse()) {
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitClass(final ClassTree type, final Void unused) {
                        final String file = root.relativize(Path.of(unit.getSourceFile().toUri())).toString();
                        if (type.getModifiers().getFlags().contains(Modifier.PUBLIC)
                                && CHANGING_ELSEWHERE.stream().noneMatch(file::startsWith)) {
                            final String problem = problemOf(docs.getDocCommentTree(getCurrentPath()));
                            if (problem != null) {
                                final long line = unit.getLineMap().getLineNumber(docs.getSourcePositions()
                                        .getStartPosition(unit, type));
                                problems.add(file + ":" + line + " " + type.getSimpleName()
                                        + ": " + problem);
                            }
                        }
                        return super.visitClass(type, unused);
                    }
                }.scan(new TreePath(unit), null);
            }
        }
        assertTrue(problems.isEmpty(), () -> problems.size() + " public types without a short first sentence (at most "
                + MAX_WORDS + " words, ending with a period):\n" + String.join("\n", problems));
    }

    /** @return what is wrong with a type's Javadoc, or null */
    static String problemOf(final DocCommentTree doc) {
        if (doc == null) {
            return "no Javadoc";
        }
        final String sentence = doc.getFirstSentence().stream().map(Object::toString).collect(Collectors.joining()).strip();
        if (sentence.isEmpty()) {
            return "no first sentence";
        }
        if (!sentence.endsWith(".")) {
            return "the first sentence does not end with a period: " + sentence;
        }
        final int words = INLINE_TAG.matcher(sentence).replaceAll("").split("\\s+").length;
        return words > MAX_WORDS ? "a first sentence of " + words + " words: " + sentence : null;
    }

    private static List<Path> sources(final Path root) throws IOException {
        final List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (final Path module : modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml"))).sorted().toList()) {
                for (final String kind : List.of("main", "test")) {
                    final Path dir = module.resolve("src").resolve(kind).resolve("java");
                    if (Files.isDirectory(dir)) {
                        try (Stream<Path> files = Files.walk(dir)) {
                            files.filter(f -> f.toString().endsWith(JavaFileObject.Kind.SOURCE.extension)).sorted()
                                    .forEach(sources::add);
                        }
                    }
                }
            }
        }
        return sources;
    }

    /** @return the reactor's root: the parent of this module's directory, where the tests run */
    private static Path repositoryRoot() {
        final Path root = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isRegularFile(root.resolve("config/checkstyle.xml")), () -> "not the repository's root: " + root);
        return root;
    }
}
