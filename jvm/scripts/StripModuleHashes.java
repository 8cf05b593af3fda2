// Removes the ModuleHashes attribute from a module-info.class (java.base's), so that `jmod hash`
// can record new hashes once a module tied to it (jdk.jfr) was rebuilt: jlink and jmod refuse a
// module whose hash differs from the one recorded. Run by jvm/scripts/image.sh with
//   java --add-exports java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED StripModuleHashes.java FILE
import java.nio.file.Files;
import java.nio.file.Path;
import jdk.internal.org.objectweb.asm.Attribute;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.Opcodes;

public class StripModuleHashes {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        ClassReader reader = new ClassReader(Files.readAllBytes(file));
        // The same constant pool: the attributes copied raw keep their indices valid.
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM8, writer) {
            @Override
            public void visitAttribute(Attribute attribute) {
                if (!attribute.type.equals("ModuleHashes")) {
                    super.visitAttribute(attribute);
                }
            }
        }, 0);
        Files.write(file, writer.toByteArray());
    }
}
