// Runs EPUBCheck on every file named on the command line in one JVM (a JVM start costs seconds);
// prints "== FILE" before each report. Run: java -cp epubcheck.jar EpubCheckMany.java A.epub B.epub
public class EpubCheckMany {
  public static void main(String[] args) {
    // one stream, so each report follows its file name
    System.setErr(System.out);
    int failed = 0;
    for (String f : args) {
      System.out.println("== " + f);
      System.out.flush();
      int rc = new com.adobe.epubcheck.tool.EpubChecker().run(new String[] { f });
      System.out.println("== rc " + rc);
      if (rc != 0) failed++;
    }
    System.exit(failed == 0 ? 0 : 1);
  }
}
