package org.teraheap.hybridtest;

import javassist.ClassPool;
import javassist.CtClass;

/**
 * A Spark that lacks one of the methods the agent advises: writes a copy of one of Spark's
 * classes, as the class path has it, with one method renamed, into a directory to put first on the
 * class path.
 *
 * <pre>WithoutMethod CLASS METHOD DIRECTORY</pre>
 */
public final class WithoutMethod {
    private WithoutMethod() {
    }

    public static void main(String[] args) throws Exception {
        CtClass type = ClassPool.getDefault().get(args[0]);
        type.getDeclaredMethod(args[1]).setName(args[1] + "Renamed");
        type.writeFile(args[2]);
        System.out.println("wrote " + args[0] + " without " + args[1] + " in " + args[2]);
    }
}
